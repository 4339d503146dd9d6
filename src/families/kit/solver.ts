import type { Action, Observation } from './engine';

/** What a reference solver sees of an episode: exactly what the API shows an agent. */
export interface SolverEnvironment {
  /** The first observation (reset's). */
  readonly first: Observation;
  readonly done: boolean;
  step(action: Action): { observation: Observation; reward: number; done: boolean };
}

/**
 * A reference solver plays one episode reading only what the API shows an agent: the first observation
 * (`env.first`) and the observation each step returns (`env.step(action).observation`: the opened ticket, the
 * search results with each article's full body, recent actions). It never reads the answer key or the task object.
 * The ablations switch off one kind of reading, to show what each family's difficulty rests on:
 * - ignoreContractNotes: decide as if the ticket had no contract notes;
 * - firstSearchHit: follow the first article of the first search, whatever it says it applies to.
 * And one for the shortcut agents (tools/validity/shortcuts.ts), which need the reply a careful agent would write
 * had it taken the case for another kind:
 * - readCaseAs: work the case as this kind (one of the solver's `caseKinds`), whatever the ticket shows.
 */
export interface SolverOptions {
  ignoreContractNotes?: boolean;
  firstSearchHit?: boolean;
  readCaseAs?: string;
}

export type Solve = (env: SolverEnvironment, options?: SolverOptions) => void;

/**
 * A family's reference solver (`src/families/<id>/solver.ts`, exported as `solver`; kept out of the server build)
 * and the bounds its proofs must keep, checked by the per-family suite (src/families/families.spec.ts) and
 * reported by `npm run validity`.
 */
export interface FamilySolver {
  solve: Solve;
  /** What the family's `hard` text claims: each ablation's mean score over seeds 0-199 stays at or under these. */
  ablationMeanAtMost: { ignoreContractNotes: number; firstSearchHit: number };
  /** The kinds of case the family's policy tells apart (each followed by its own article), for `readCaseAs`. */
  caseKinds: readonly string[];
}
