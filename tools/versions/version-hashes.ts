import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { canonicalJson, sha256Hex } from '../../src/common/canonical-json';
import { PROJECT_ROOT } from '../../src/common/project-root';
import type { Action } from '../../src/engine/actions';
import { reset, step } from '../../src/engine/engine';
import { familyVersion } from '../../src/families';
import { grade, type GradeBreakdown } from '../../src/engine/grader';
import type { GraderVersion } from '../../src/engine/grader-version';
import type { EpisodeState } from '../../src/engine/state';
import type { Task } from '../../src/engine/task.schema';

/*
 * What makes a released version "the same": hashes of what it does on a fixed corpus, and of its sources. The
 * manifest (released-versions.json) holds the hashes of every released version; released-versions.spec.ts checks
 * them in `npm test`, and `npm run versions:freeze` writes the entry of a new version (never of a released one).
 */

export const VERSIONS_DIR = join(PROJECT_ROOT, 'tools', 'versions');
export const MANIFEST_FILE = join(VERSIONS_DIR, 'released-versions.json');

export interface GraderEntry {
  /** sha256 of the canonical JSON of every corpus case's step results, final state and full grade breakdown. */
  verdicts: string;
  /** sha256 over the version folder's files (path and content; specs left out: they make no verdict). */
  sources: string;
  /** The frozen corpus the verdicts are taken on (under tools/versions/), and how many cases it holds. */
  corpus: string;
  cases: number;
  /**
   * Source changes made after release that change no verdict on the frozen corpus (`verdicts` still holds): only
   * for a reply the version never gave a verdict on, such as one it never finished grading. Each names its reason;
   * the newest one's `sources` is what the folder must hash to now. Written by hand, and reviewed as such.
   */
  amendments?: GraderAmendment[];
}

export interface GraderAmendment {
  sources: string;
  reason: string;
}

/** The hash a released version's folder must have now: its newest amendment's, or the one it was released with. */
export function frozenSources(entry: GraderEntry): string {
  return entry.amendments?.at(-1)?.sources ?? entry.sources;
}

export interface GeneratorEntry {
  /** The seeds the instances are drawn for. */
  seeds: number[];
  /** sha256 of the canonical JSON of the instances those seeds generate, in seed order. */
  instances: string;
}

export interface Manifest {
  graders: Record<string, GraderEntry>;
  /** By family id, then generator version. */
  generators: Record<string, Record<string, GeneratorEntry>>;
}

/** A task of the corpus: a snapshot stored in the corpus file, or an instance of a (frozen) generator version. */
export type CorpusTask = { snapshot: string } | { family: string; generator_version: number; seed: number };

export interface CorpusCase {
  /** What the case exercises ("validity dev/c01", "family seed 3: negated reply"). */
  label: string;
  task: CorpusTask;
  seed: number;
  actions: Action[];
}

/** A frozen corpus: written once when its version is frozen, never regenerated (the material it came from may move on). */
export interface GraderCorpus {
  grader_version: number;
  tasks: Record<string, Task>;
  cases: CorpusCase[];
}

/** A corpus as written to its file: one task and one case a line, so a diff of it can be read. */
export function corpusText(corpus: GraderCorpus): string {
  const tasks = Object.entries(corpus.tasks).map(([key, task]) => `  ${JSON.stringify(key)}: ${JSON.stringify(task)}`);
  const cases = corpus.cases.map((c) => `  ${JSON.stringify(c)}`);
  return `{\n "grader_version": ${corpus.grader_version},\n "tasks": {\n${tasks.join(',\n')}\n },\n "cases": [\n${cases.join(',\n')}\n ]\n}\n`;
}

export type GradeFunction = (task: Task, state: EpisodeState) => GradeBreakdown;

export function readManifest(file = MANIFEST_FILE): Manifest {
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

export function readCorpus(name: string): GraderCorpus {
  return JSON.parse(readFileSync(join(VERSIONS_DIR, name), 'utf8')) as GraderCorpus;
}

export function corpusTask(corpus: GraderCorpus, ref: CorpusTask): Task {
  if ('snapshot' in ref) return corpus.tasks[ref.snapshot];
  const family = familyVersion(ref.family, ref.generator_version);
  if (!family) throw new Error(`the corpus names generator ${ref.family} g${ref.generator_version}, which is not registered`);
  return family.generate(ref.seed);
}

/** What one case does under a version: each step's reward, score and error, the final state and its full grade. */
export function caseOutcome(task: Task, c: CorpusCase, version: GraderVersion, gradeWith: GradeFunction = grade): unknown {
  let state = reset(task, c.seed, version);
  const steps: [number, number, string | null][] = [];
  for (const action of c.actions) {
    if (state.done) break;
    const result = step(task, state, action);
    state = result.state;
    steps.push([result.reward_milli, state.score_milli, result.error]);
  }
  return { label: c.label, steps, state, grade: gradeWith(task, state) };
}

/** The outcomes of every case, in corpus order. */
export function corpusOutcomes(corpus: GraderCorpus, gradeWith: GradeFunction = grade): unknown[] {
  const version = corpus.grader_version as GraderVersion;
  const tasks = new Map<string, Task>();
  return corpus.cases.map((c) => {
    const key = canonicalJson(c.task);
    let task = tasks.get(key);
    if (!task) tasks.set(key, (task = corpusTask(corpus, c.task)));
    return caseOutcome(task, c, version, gradeWith);
  });
}

export const hashOf = (value: unknown): string => sha256Hex(canonicalJson(value));

/** The verdict hash of a version on its corpus. */
export function verdictHash(corpus: GraderCorpus, gradeWith: GradeFunction = grade): string {
  return hashOf(corpusOutcomes(corpus, gradeWith));
}

/**
 * The hash of a folder's sources: each file's path (relative, with "/") and content, sorted by path. Line endings
 * are read as LF, so a checkout that converts them (core.autocrlf) does not look like a change; specs are left out.
 */
export function sourceHash(folder: string): string {
  const files: [string, string][] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.endsWith('.spec.ts')) files.push([relative(folder, path).split(sep).join('/'), readFileSync(path, 'utf8').replace(/\r\n/g, '\n')]);
    }
  };
  walk(folder);
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return hashOf(files);
}

/** The instances a generator version draws for the seeds, hashed. */
export function generatorHash(familyId: string, version: number, seeds: number[]): string {
  const family = familyVersion(familyId, version);
  if (!family) throw new Error(`no generator ${familyId} g${version}`);
  return hashOf(seeds.map((seed) => family.generate(seed)));
}

/** The manifest entry of a grader version being frozen. */
export function freezeGrader(version: number, corpus: GraderCorpus, corpusName: string): GraderEntry {
  return { verdicts: verdictHash(corpus), sources: sourceHash(graderFolder(version)), corpus: corpusName, cases: corpus.cases.length };
}

/** The manifest entry of a generator version being frozen. */
export function freezeGenerator(familyId: string, version: number): GeneratorEntry {
  return { seeds: GENERATOR_SEEDS, instances: generatorHash(familyId, version, GENERATOR_SEEDS) };
}

/** A grader version's folder. */
export const graderFolder = (version: number): string => join(PROJECT_ROOT, 'src', 'engine', 'graders', `v${version}`);

/** The manifest as written: two-space JSON, seed lists on one line. */
export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2).replace(/\[\s*((?:\d+,\s*)*\d+)\s*\]/g, (_, list: string) => `[${list.split(/,\s*/).join(', ')}]`)}\n`;
}

/** The seeds a generator version is frozen on: the first test and train seeds, and a few far ones. */
export const GENERATOR_SEEDS = [...Array.from({ length: 40 }, (_, i) => i), 1000, 4321, 65535, 99999, 123457];

/**
 * Whether released grader `version` still makes its frozen verdicts on its frozen corpus: null when it does, else
 * what changed and what to do. (released-verdicts.proof.spec.ts asks it of every released version, in CI: npm run
 * test:slow.)
 */
export function frozenVerdictProblem(version: number, manifest: Manifest = readManifest()): string | null {
  const entry = manifest.graders[version];
  const corpus = readCorpus(entry.corpus);
  if (corpus.cases.length !== entry.cases) return `tools/versions/${entry.corpus} holds ${corpus.cases.length} cases, frozen as ${entry.cases}`;
  const actual = verdictHash(corpus);
  if (actual === entry.verdicts) return null;
  return (
    `released grader version ${version} changed: its verdicts are frozen (the hash of its grades on tools/versions/${entry.corpus} is ` +
    `${actual}, frozen as ${entry.verdicts}). Undo the change to src/engine/graders/v${version} or to the engine code it uses, and ` +
    'make the change a new grader version (src/engine/grader-version.ts, docs/grading.md).'
  );
}
