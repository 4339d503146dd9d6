import type { AgentEnvironment } from '../agents';

/**
 * A reference solver plays one episode reading only what the API shows an agent: the first observation
 * (`env.first`) and the observation each step returns (`env.step(action).observation`: the opened ticket, the
 * search results with each article's full body, recent actions). It never reads the answer key, the task object or
 * `env.state`.
 * The ablations switch off one kind of reading, to show what each family's difficulty rests on:
 * - ignoreContractNotes: decide as if the ticket had no contract notes;
 * - firstSearchHit: follow the first article of the first search, whatever it says it applies to.
 */
export interface SolverOptions {
  ignoreContractNotes?: boolean;
  firstSearchHit?: boolean;
}

export type Solver = (env: AgentEnvironment, options?: SolverOptions) => void;
