import { join } from 'node:path';
import type { Action } from '../../../src/engine/actions';
import type { Task } from '../../../src/engine/task.schema';
import type { FamilySolver, SolverOptions } from '../../../src/families/kit';
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
