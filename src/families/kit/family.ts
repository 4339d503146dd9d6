import type { Difficulty, Task, TaskLexicon } from './engine';

/**
 * A task family: a generator from a seed to a task instance. Everything an agent must reason about is drawn from
 * the seed, and the answer key is derived from the drawn facts by the family's policy logic, never written per
 * instance. `generate` is pure and deterministic: the same seed gives the same instance on every machine, for as
 * long as `generatorVersion` is unchanged (a change to what any seed generates is a new version; old versions stay
 * registered, so every stored episode replays).
 */
export interface TaskFamily {
  /** The task id (the family of the seed task keeps the task's id); its folder is src/families/<id>/. */
  id: string;
  /** The support domain the catalogue shows (`billing`, `security`, …): the family's own word, no list to extend. */
  domain: string;
  difficulty: Difficulty;
  title: string;
  generatorVersion: number;
  /** For the catalogue: what varies from seed to seed, and what makes the family hard. */
  varies: string;
  hard: string;
  /** How many distinct instances the generator can draw (the product of its independent choices), as a lower bound. */
  distinctInstances: number;
  /** The step budgets (`max_steps`) its instances are drawn with, smallest and largest. */
  maxSteps: { min: number; max: number };
  generate(seed: number): Task;
  /**
   * The canonical instance: the task JSON (`canonical.json` beside the generator) the catalogue serves when no
   * seed is asked for, validated and stored by content hash at start-up like any task file.
   */
  canonical: unknown;
  /**
   * The facts that decide the answer, as one string: two instances with the same fingerprint would be solved the
   * same way (the distinctness check counts these).
   */
  fingerprint(task: Task): string;
}

/** A generated instance's task version: the generator that drew it ("g1"), stored with the episode and its seed. */
export function generatorVersionId(version: number): string {
  return `g${version}`;
}

/** The generator version a task version names, or null for a task file's content hash. */
export function parseGeneratorVersion(taskVersion: string): number | null {
  const match = /^g([1-9][0-9]{0,5})$/.exec(taskVersion);
  return match ? Number(match[1]) : null;
}

/**
 * A generator version that draws what `base` draws, with the family's task lexicon (`answer_key.lexicon`: the
 * words of its domain grader version 3 reads from the task, src/engine/graders/v3/claims/lexicon.ts) declared in
 * every instance. Nothing else differs, seed for seed, so what was measured on `base` holds for it under version 2.
 */
export function declaringLexicon(base: TaskFamily, generatorVersion: number, lexicon: TaskLexicon): TaskFamily {
  return {
    ...base,
    generatorVersion,
    // The canonical instance declares it too (a new content hash, so a new task version beside the old one, which
    // stored episodes keep): its texts and answer key stay the hand-written ones, its domain words are the family's.
    canonical: withLexicon(base.canonical, lexicon),
    generate(seed) {
      const task = base.generate(seed);
      return { ...task, answer_key: { ...task.answer_key, lexicon: structuredClone(lexicon) } };
    },
  };
}

/** A task JSON with the lexicon declared in its answer key (anything else is returned as is, for validation to refuse). */
function withLexicon(task: unknown, lexicon: TaskLexicon): unknown {
  if (!isObject(task) || !isObject(task.answer_key)) return task;
  return { ...task, answer_key: { ...task.answer_key, lexicon: structuredClone(lexicon) } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
