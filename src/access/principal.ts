/**
 * What a tenant's API key may do:
 * - agent: start and step episodes, and read the episodes it started (a policy under evaluation cannot read
 *   another agent's trajectories);
 * - reader: read every episode of its tenant, audits, exports and statistics, but run nothing.
 * Requests without a key in open mode act as "anonymous" on the public tenant: both, since it is one user's server.
 */
export const KEY_SCOPES = ['agent', 'reader'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** Who a request acts for, set by authentication before anything else runs. */
export type Principal =
  | { kind: 'tenant'; tenantId: string; keyId: string | null; scope: KeyScope | 'anonymous' }
  | { kind: 'admin' };

export type TenantPrincipal = Extract<Principal, { kind: 'tenant' }>;

export type RequestWithPrincipal = { principal?: Principal };

/** Whose episodes a caller works on: a tenant, and unless it may see the whole tenant, the key that started them. */
export interface EpisodeCaller {
  tenantId: string;
  keyId: string | null;
  /** Readers and the anonymous open-mode user see every episode of the tenant; agent keys only their own. */
  seesWholeTenant: boolean;
  /**
   * Whether it is shown the grading of test-split episodes (score, rewards, components, penalties, reply details).
   * Agent keys are what is evaluated on the test split, so they never are, not even once the episode has ended;
   * readers and the open-mode user are (docs/evaluation.md, "What an agent key never sees").
   */
  seesTestGrades: boolean;
}

export function callerOf(principal: TenantPrincipal): EpisodeCaller {
  const agent = principal.scope === 'agent';
  return { tenantId: principal.tenantId, keyId: principal.keyId, seesWholeTenant: !agent, seesTestGrades: !agent };
}
