import type { Action } from '../../../src/engine/actions';
import type { Task } from '../../../src/engine/task.schema';
import { AgentEnvironment } from '../agents';
import { solveBillingDuplicateCharge } from './billing-duplicate-charge.solver';
import { solveLogisticsMissingOrderVip } from './logistics-missing-order-vip.solver';
import { solveSecurityCompromisedAccount } from './security-compromised-account.solver';
import type { Solver, SolverOptions } from './solver';

export type { Solver, SolverOptions } from './solver';

/** The reference solver of each family: reads only what the API shows, never the answer key. */
export const SOLVERS: Record<string, Solver> = {
  billing_duplicate_charge: solveBillingDuplicateCharge,
  security_compromised_account: solveSecurityCompromisedAccount,
  logistics_missing_order_vip: solveLogisticsMissingOrderVip,
};

/** The reference solver's actions on one instance, with the score they earn (dense feedback). */
export function referenceRun(task: Task, seed: number, options: SolverOptions = {}): { actions: Action[]; score: number } {
  const env = new AgentEnvironment(task, seed, 'dense');
  const actions: Action[] = [];
  const recording = Object.create(env) as AgentEnvironment;
  recording.step = (action: Action) => {
    actions.push(action);
    return env.step(action);
  };
  SOLVERS[task.id](recording, options);
  return { actions, score: env.state.score_milli / 1000 };
}
