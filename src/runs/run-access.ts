import { ForbiddenError, NotFoundError } from '../common/errors/domain-errors';
import type { Principal, TenantPrincipal } from '../access/principal';
import type { RunRow } from './run-statements';

/**
 * Who sees what of runs. Runs belong to a tenant and to the key that created them: an agent key sees (and fills)
 * only its own runs and never their scores, since it is what is being evaluated; a reader key sees every run of its
 * tenant with its results; the open-mode user (no keys) is both, as on its own server it evaluates itself.
 */
export interface RunViewer {
  tenantId: string;
  keyId: string | null;
  /** Readers and the open-mode user see every run of the tenant; an agent key only its own. */
  seesWholeTenant: boolean;
  /** Readers and the open-mode user see scores; agent keys never do. */
  seesScores: boolean;
}

export function runViewerOf(principal: Principal): RunViewer {
  if (principal.kind === 'admin') {
    throw new ForbiddenError("runs belong to a tenant: read them with the tenant's reader key");
  }
  return viewerOfTenant(principal);
}

function viewerOfTenant(principal: TenantPrincipal): RunViewer {
  const agent = principal.scope === 'agent';
  return { tenantId: principal.tenantId, keyId: principal.keyId, seesWholeTenant: !agent, seesScores: !agent };
}

/** The run if the viewer may see it; another key's run answers exactly like a missing one. */
export function visibleRun(viewer: RunViewer, run: RunRow | null, runId: string): RunRow {
  if (run === null || (!viewer.seesWholeTenant && run.apiKeyId !== viewer.keyId)) throw new NotFoundError(`no run "${runId}"`);
  return run;
}

/** Why an agent key is shown no scores of a run. */
export const RESULTS_WITHHELD =
  'an agent key is never shown the scores of a run (it is what is being evaluated); read the results with a reader key of the tenant';
