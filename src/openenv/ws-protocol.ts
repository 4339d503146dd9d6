/** OpenEnv's WebSocket message protocol (openenv-core's client), as SupportDesk speaks it. */
export type ClientMessage =
  | { type: 'reset'; data?: Record<string, unknown> }
  | { type: 'step'; data: unknown }
  /** The body of POST /step/batch; answered `{type: 'step_batch', data: {results}}`. */
  | { type: 'step_batch'; data: unknown }
  | { type: 'state' }
  | { type: 'close' }
  | { type: 'mcp'; data: unknown };

export const WS_ERROR_CODES = {
  invalidJson: 'INVALID_JSON',
  unknownType: 'UNKNOWN_TYPE',
  validation: 'VALIDATION_ERROR',
  execution: 'EXECUTION_ERROR',
  capacity: 'CAPACITY_REACHED',
  session: 'SESSION_ERROR',
} as const;

export type WsErrorCode = (typeof WS_ERROR_CODES)[keyof typeof WS_ERROR_CODES];

export function errorMessage(code: WsErrorCode, message: string, extra: Record<string, unknown> = {}) {
  return { type: 'error', data: { message, code, ...extra } };
}
