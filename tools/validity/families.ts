import { performance } from 'node:perf_hooks';
import type { Action } from '../../src/engine/actions';
import { latestFamilies, type TaskFamily } from '../../src/families';
import { AgentEnvironment } from './agents';
import { referenceRun } from './solvers';
import { REQUIRED_SETS, familyFixtures } from './validity-suite';

/*
 * The families' proofs at scale (`npm run validity`; each family's spec checks the same at 200 seeds in CI):
 * - solvable: the reference solver, reading only observations, reaches exactly 1.0 on every instance;
 * - varied: instances differ in the facts that decide the answer (fingerprints);
 * - not memorisable: one instance's correct actions replayed on other instances score little;
 * - ablations: the solver ignoring contract notes, or following the first search hit, fails where the family says
 *   it is hard.
 */

export interface FamilyFigures {
  id: string;
  difficulty: string;
  seeds: number;
  solvedExactly: number;
  distinctShare: number;
  memorisedMean: number;
  ignoreNotesMean: number;
  firstHitMean: number;
  generationMsMedian: number;
  /** The reply fixture sets in the family's folder (src/families/<id>/fixtures/<set>.json). */
  fixtureSets: string[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function replay(family: TaskFamily, actions: Action[], seed: number): number {
  const env = new AgentEnvironment(family.generate(seed), seed, 'dense');
  for (const action of actions) if (!env.done) env.step(action);
  return env.state.score_milli / 1000;
}

export function familyFigures(family: TaskFamily, seeds: number): FamilyFigures {
  const range = Array.from({ length: seeds }, (_, i) => i);
  const times: number[] = [];
  const instances = range.map((seed) => {
    const start = performance.now();
    const task = family.generate(seed);
    times.push(performance.now() - start);
    return task;
  });
  const solved = instances.map((task, seed) => referenceRun(task, seed));
  // Ten instances' correct actions, each replayed on fifty others (seeds past the range, so none is its own).
  const memorised = range.slice(0, 10).flatMap((source) => Array.from({ length: 50 }, (_, k) => replay(family, solved[source].actions, seeds + source * 50 + k)));
  times.sort((a, b) => a - b);
  return {
    id: family.id,
    difficulty: family.difficulty,
    seeds,
    solvedExactly: solved.filter((r) => r.score === 1).length,
    distinctShare: new Set(instances.map((task) => family.fingerprint(task))).size / seeds,
    memorisedMean: mean(memorised),
    ignoreNotesMean: mean(instances.map((task, seed) => referenceRun(task, seed, { ignoreContractNotes: true }).score)),
    firstHitMean: mean(instances.map((task, seed) => referenceRun(task, seed, { firstSearchHit: true }).score)),
    generationMsMedian: times[Math.floor(times.length / 2)],
    fixtureSets: familyFixtures(family.id).map((f) => f.set),
  };
}

export function allFamilyFigures(seeds: number): FamilyFigures[] {
  return latestFamilies().map((family) => familyFigures(family, seeds));
}

/** The family's reply fixtures, or which required sets it lacks: its replies are then not measured. */
function fixtureCell(sets: string[]): string {
  const lacking = REQUIRED_SETS.filter((set) => !sets.includes(set));
  if (lacking.length > 0) return `no ${lacking.join(' or ')} fixtures yet: not measured`;
  return `${sets.length} sets (${sets.join(', ')})`;
}

export function familyTable(figures: FamilyFigures[]): string {
  const lines = [
    '| family | difficulty | seeds | reference solver at exactly 1.0 | distinct instances | one instance\'s actions replayed on others (mean) | ignoring contract notes (mean) | first search hit (mean) | generation, median | reply fixtures |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const f of figures) {
    lines.push(
      `| ${f.id} | ${f.difficulty} | ${f.seeds} | ${f.solvedExactly} of ${f.seeds} | ${(100 * f.distinctShare).toFixed(1)}% | ${f.memorisedMean.toFixed(3)} | ` +
        `${f.ignoreNotesMean.toFixed(3)} | ${f.firstHitMean.toFixed(3)} | ${f.generationMsMedian.toFixed(3)} ms | ${fixtureCell(f.fixtureSets)} |`,
    );
  }
  return lines.join('\n');
}
