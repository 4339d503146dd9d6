/** Who a request acts for, set by the auth guard. */
export type Principal =
  | { kind: 'tenant'; tenantId: string; keyId: string | null }
  | { kind: 'admin' };

export type RequestWithPrincipal = { principal?: Principal };
