import { join } from 'node:path';
import type { Action } from '../../../src/engine/actions';
import type { Task } from '../../../src/engine/task.schema';
import type { FamilySolver, SolverEnvironment, SolverOptions } from '../../../src/families/kit';
import { AgentEnvironment } from '../agents';

export type { FamilySolver, Solve, SolverOptions } from '../../../src/families/kit';

/**
 * The reference solver of a family: `solver` exported by src/families/<id>/solver.ts. It reads only what the API
 * shows, never the answer key. Found by the family's id rather than listed here, so a family is registered in one
 * place (src/families/index.ts); solver files are left out of the server build (tsconfig.json) and built with the
 * tools (tools/tsconfig.json), hence the require by path (relative to this file in src/ and in build/ alike).
 */
export function solverOf(familyId: string): FamilySolver {
  let loaded: { solver?: FamilySolver };
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require(join(__dirname, '..', '..', '..', 'src', 'families', familyId, 'solver')) as { solver?: FamilySolver };
  } catch (error) {
    throw new Error(`family ${familyId} has no reference solver (src/families/${familyId}/solver.ts): ${(error as Error).message}`);
  }
  if (!loaded.solver) throw new Error(`src/families/${familyId}/solver.ts exports no \`solver\``);
  return loaded.solver;
}

/** The reference solver's actions on one instance, with the score they earn (dense feedback). */
export function referenceRun(task: Task, seed: number, options: SolverOptions = {}): { actions: Action[]; score: number } {
  const env = new AgentEnvironment(task, seed, 'dense');
  const actions: Action[] = [];
  const recording = Object.create(env) as AgentEnvironment;
  recording.step = (action: Action) => {
    actions.push(action);
    return env.step(action);
  };
  solverOf(task.id).solve(recording, options);
  return { actions, score: env.state.score_milli / 1000 };
}

/**
 * The reference solver's searches and reply on one instance, for the shortcut agents (tools/validity/shortcuts.ts),
 * which take those and decide the rest themselves. Its searches are made in `episode`, the agent's own episode with
 * the target ticket open (so each is run once, where it counts); the tickets it opens to find the target are opened
 * in a side episode the agent never plays; its reply is recorded, not sent, and the solver is told the episode ended
 * there. Solvers read the ticket from the observation of the step that opens it, so each sees what it would alone.
 */
export function solverSearchesAndReply(episode: AgentEnvironment, task: Task, seed: number, options: SolverOptions = {}): { queries: string[]; reply: string } {
  const side = new AgentEnvironment(task, seed, 'dense');
  const queries: string[] = [];
  let reply: string | null = null;
  let last = side.first;
  const env: SolverEnvironment = {
    first: side.first,
    get done() {
      return reply !== null || episode.done || side.done;
    },
    step(action) {
      if (env.done) return { observation: last, reward: 0, done: true };
      if (action.type === 'send_reply') reply = action.message;
      // Priority and routing are the agent's to decide: not made anywhere.
      if (action.type !== 'open_ticket' && action.type !== 'search_policy') return { observation: last, reward: 0, done: env.done };
      if (action.type === 'search_policy') queries.push(action.query);
      const view = (action.type === 'open_ticket' ? side : episode).step(action);
      last = view.observation;
      return view;
    },
  };
  solverOf(task.id).solve(env, options);
  return { queries, reply: reply ?? '' };
}
