import type { Action } from '../../src/engine/actions';
import type { Task } from '../../src/engine/task.schema';
import { LEGACY_LEXICON } from './v2-legacy-lexicon';
import { caseOutcome, corpusTask, readCorpus, readManifest, type CorpusCase } from './version-hashes';

/*
 * A renamed domain is the same case (issue 22): renaming the families' own words consistently in the task (its
 * tickets, articles, declarations and lexicon) and in the agent's actions must leave every verdict of grader
 * version 3 as it was, because it knows those words only from the task. Version 2, which holds them in its code,
 * judges some renamed cases differently: that is the check failing where it should.
 */

/** Made-up words with regular plurals, none of them in the engine, the shared vocabulary or the corpus. */
const RENAMES: Record<string, string> = {
  visa: 'zeta', mastercard: 'quorra', amex: 'plexo', kit: 'widget', badge: 'medal', lanyard: 'ribbon', parcel: 'crate',
  attacker: 'interloper', hacker: 'prowler', intruder: 'trespasser', identity: 'personhood', replacement: 'substitute',
};

const PATTERN = new RegExp(`\\b(${Object.keys(RENAMES).join('|')})(s?)\\b`, 'gi');
/** The same, to test a text for a family word. */
const MENTIONS = new RegExp(PATTERN.source, 'i');

/** The text with each family word renamed, in its case ("Visa" → "Zeta", "kits" → "widgets"). */
function rename(text: string): string {
  return text.replace(PATTERN, (_, word: string, plural: string) => {
    const to = RENAMES[word.toLowerCase()];
    const cased = word === word.toUpperCase() && word.length > 1 ? to.toUpperCase() : word[0] === word[0].toUpperCase() ? to[0].toUpperCase() + to.slice(1) : to;
    return cased + plural;
  });
}

const renamed = <T>(value: T): T => JSON.parse(rename(JSON.stringify(value))) as T;

const corpus = readCorpus(readManifest().graders['2'].corpus);

/** What a grade decides, without the sentences it quotes (they hold the renamed words). */
function verdicts(task: Task, c: CorpusCase, version: 2 | 3) {
  const outcome = caseOutcome(task, c, version) as {
    steps: unknown;
    grade: { score_milli: number; reply_details: { id: string; covered: boolean; reason: string | null }[]; penalties: { id: string; kind: string }[] };
  };
  return {
    steps: outcome.steps,
    score: outcome.grade.score_milli,
    details: outcome.grade.reply_details.map((d) => [d.id, d.covered, d.reason]),
    penalties: outcome.grade.penalties.map((p) => [p.id, p.kind]),
  };
}

const tasks = new Map<string, { task: Task; renamed: Task }>();
function pairOf(c: CorpusCase) {
  const key = JSON.stringify(c.task);
  let pair = tasks.get(key);
  if (!pair) {
    const v2 = corpusTask(corpus, c.task);
    const task: Task = { ...v2, answer_key: { ...v2.answer_key, lexicon: LEGACY_LEXICON } };
    tasks.set(key, (pair = { task, renamed: renamed(task) }));
  }
  return pair;
}

/** The cases that say a renamed word: the others are unchanged by the renaming. */
const touched = corpus.cases.filter((c) => MENTIONS.test(JSON.stringify(c.actions)));

it('the renaming touches a good part of the corpus and leaves no old word behind', () => {
  expect(touched.length).toBeGreaterThan(300);
  const task = pairOf(touched[0]).renamed;
  expect(JSON.stringify(task)).not.toMatch(MENTIONS);
});

it('version 3 makes the same verdicts on a case and on its renamed twin', () => {
  const differ: string[] = [];
  for (const c of touched) {
    const pair = pairOf(c);
    const twin: CorpusCase = { ...c, actions: renamed<Action[]>(c.actions) };
    if (JSON.stringify(verdicts(pair.task, c, 3)) !== JSON.stringify(verdicts(pair.renamed, twin, 3))) differ.push(c.label);
  }
  expect(differ).toEqual([]);
});

it('version 2 does not (the check can fail)', () => {
  const differs = touched.some((c) => {
    const pair = pairOf(c);
    return JSON.stringify(verdicts(pair.task, c, 2)) !== JSON.stringify(verdicts(pair.renamed, { ...c, actions: renamed<Action[]>(c.actions) }, 2));
  });
  // 4 of the 810 renamed cases when this was written (billing c34, logistics a27, security c16 and a03).
  expect(differs).toBe(true);
});
