/** JSON-RPC 2.0 envelopes for what the MCP SDK's transport does not answer itself (malformed messages, OpenEnv's methods). */
export const JSON_RPC = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  serverError: -32000,
} as const;

export function rpcError(id: unknown, code: number, message: string, data?: unknown) {
  return { jsonrpc: '2.0' as const, id: rpcId(id), error: { code, message, ...(data === undefined ? {} : { data }) } };
}

export function rpcResult(id: unknown, result: unknown) {
  return { jsonrpc: '2.0' as const, id: rpcId(id), result };
}

/** The request's id as the response echoes it (null when it had none or an invalid one). */
function rpcId(id: unknown): string | number | null {
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

/** A single JSON-RPC 2.0 request or notification, or a batch of them. */
export function isJsonRpcMessage(body: unknown): boolean {
  const one = (m: unknown) =>
    m !== null &&
    typeof m === 'object' &&
    !Array.isArray(m) &&
    (m as { jsonrpc?: unknown }).jsonrpc === '2.0' &&
    (typeof (m as { method?: unknown }).method === 'string' || 'result' in (m as object) || 'error' in (m as object));
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}

/** Route config flag: the route speaks JSON-RPC, so errors about its body are answered as JSON-RPC envelopes. */
export const JSON_RPC_ROUTE = 'jsonRpc';
