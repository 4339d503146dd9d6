import { AgentEnvironment } from '../../tools/validity/agents';
import { solverOf, type SolverOptions } from '../../tools/validity/solvers';
import { grade } from '../engine/grader';
import { CURRENT_GRADER_VERSION, graderVersionOf } from '../engine/graders';
import { taskSchema, type Task } from '../engine/task.schema';
import { latestFamilies, type TaskFamily } from '.';

/*
 * What every family must prove (docs/tasks.md, TASKS.md "Prove it"), one suite over the registry: a family added to
 * src/families/index.ts is held to all of it with no edit here. What is particular to one family (its case mix, its
 * policy logic, its replies) stays in that family's folder (src/families/<id>/family.spec.ts).
 */

/**
 * Seeds per proof: FAMILY_SEEDS, 60 in npm test (its time budget) and 200 when CI runs this suite again at its
 * deeper size (.ci/run), as the solvers' declared ablation bounds are stated for seeds 0-199.
 */
const SEEDS = Array.from({ length: Number(process.env.FAMILY_SEEDS ?? 60) }, (_, i) => i);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function instances(family: TaskFamily): (seed: number) => Task {
  const drawn = new Map<number, Task>();
  return (seed) => {
    let task = drawn.get(seed);
    if (!task) drawn.set(seed, (task = family.generate(seed)));
    return task;
  };
}

function play(family: TaskFamily, task: Task, seed: number, options: SolverOptions = {}): AgentEnvironment {
  const env = new AgentEnvironment(task, seed, 'dense');
  solverOf(family.id).solve(env, options);
  return env;
}

// The versions that draw new episodes: an older version's instances are frozen (tools/versions/released-versions.spec.ts)
// and were proven here while it drew them.
describe.each(latestFamilies().map((f) => [`${f.id} g${f.generatorVersion}`, f] as const))('family %s', (_name, family) => {
  const task = instances(family);

  it('generates schema-valid instances of its own id, deterministically', () => {
    for (const seed of SEEDS) {
      expect(() => taskSchema.parse(task(seed))).not.toThrow();
      expect(task(seed).id).toBe(family.id);
      expect(family.generate(seed)).toEqual(task(seed));
    }
  });

  it('is graded by the current grader: its instances and its canonical instance declare a lexicon', () => {
    // Grader version 3 grades only tasks that declare their domain words (answer_key.lexicon, src/families/<id>/
    // lexicon.ts); a family that forgot would be graded by version 2, the engine that holds other families' words.
    for (const seed of SEEDS.slice(0, 20)) expect(graderVersionOf(task(seed))).toBe(CURRENT_GRADER_VERSION);
    expect(graderVersionOf(taskSchema.parse(family.canonical))).toBe(CURRENT_GRADER_VERSION);
  });

  it('is solved with a score of exactly 1.0, no penalty and within the step budget by its reference solver', () => {
    for (const seed of SEEDS) {
      const env = play(family, task(seed), seed);
      expect({ seed, score: env.state.score_milli, penalties: grade(task(seed), env.state).penalties }).toEqual({ seed, score: 1000, penalties: [] });
      expect(env.state.history.length).toBeLessThanOrEqual(task(seed).max_steps);
    }
  });

  it('draws at least 99% distinct instances over 1000 seeds', () => {
    const prints = new Set(Array.from({ length: 1000 }, (_, seed) => family.fingerprint(family.generate(seed))));
    expect(prints.size).toBeGreaterThanOrEqual(990);
  });

  it("does not reward a memorised script: seed 0's actions replayed on 50 other instances score at most 0.35", () => {
    const recorded = play(family, task(0), 0).state.history.map((h) => h.action);
    const scores = Array.from({ length: 50 }, (_, i) => {
      const env = new AgentEnvironment(task(i + 1), i + 1, 'dense');
      for (const action of recorded) if (!env.done) env.step(action);
      return env.state.score_milli / 1000;
    });
    expect(mean(scores)).toBeLessThanOrEqual(0.35);
  });

  // The family's `hard` text names what its instances rest on; its solver declares the bounds that text claims.
  it.each(['ignoreContractNotes', 'firstSearchHit'] as const)('fails the %s ablation where its `hard` text says it does', (ablation) => {
    const bound = solverOf(family.id).ablationMeanAtMost[ablation];
    expect(bound).toBeLessThan(1);
    expect(mean(SEEDS.map((seed) => play(family, task(seed), seed, { [ablation]: true }).state.score_milli / 1000))).toBeLessThanOrEqual(bound);
  });

  // /tasks publishes each family's declared step budgets: every instance it draws must keep within them.
  it('draws every instance with a max_steps inside the declared range, and reaches both ends of it', () => {
    const budgets = new Set<number>();
    for (let seed = 0; seed < 300; seed++) budgets.add(task(seed).max_steps);
    const drawn = [...budgets];
    expect(drawn.every((n) => n >= family.maxSteps.min && n <= family.maxSteps.max)).toBe(true);
    expect([Math.min(...drawn), Math.max(...drawn)]).toEqual([family.maxSteps.min, family.maxSteps.max]);
  });
});

describe.each(latestFamilies().map((f) => [f.id, f] as const))('family %s, canonical instance', (_name, family) => {
  // The canonical instance predates the generator (it is the hand-written seed task), so the solver is not held to it.
  it('is a valid task of the family, with the family difficulty', () => {
    const canonical = taskSchema.parse(family.canonical);
    expect([canonical.id, canonical.difficulty]).toEqual([family.id, family.difficulty]);
  });
});
