import { Logger } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

type RequestHandler = (request: { method: string; params?: unknown }, extra: unknown) => Promise<unknown>;

const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/** An error the SDK answers as it is: its `code`, and its message with no prefix. */
function rpcFailure(code: number, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * How an MCP session answers a request whose params break the method's schema: JSON-RPC -32602 with a plain
 * sentence, as the rest of the service words errors. Left to itself the SDK parses params with its zod schemas and
 * answers a failed parse with -32603 (internal error) whose message is zod's JSON dump of the issues, or, for
 * tools/call, -32602 with the same dump; and an unexpected error's own message. Each request handler of the server
 * is wrapped: tools/call and tools/list params are checked first, in plain words; a parse failure the SDK still
 * finds becomes -32602 naming the field; anything else unexpected becomes a logged, generic -32603.
 *
 * The handlers are reached through the SDK's handler table (`_requestHandlers`), the one place every request
 * passes; a test holds the answers to their wording, so an SDK that moved it would be caught.
 */
export function answerParamErrorsPlainly(server: Server): void {
  const handlers = (server as unknown as { _requestHandlers?: Map<string, RequestHandler> })._requestHandlers;
  if (!(handlers instanceof Map)) throw new Error('the MCP SDK no longer keeps its request handlers where answerParamErrorsPlainly looks');
  const logger = new Logger('McpSessions');
  for (const [method, handler] of handlers) {
    handlers.set(method, async (request, extra) => {
      const problem = paramsProblem(method, request.params);
      if (problem) throw rpcFailure(INVALID_PARAMS, `Invalid params: ${problem}`);
      try {
        return await handler(request, extra);
      } catch (error) {
        throw plainly(error, method, logger);
      }
    });
  }
}

/** The params problems of the two methods an agent calls, in plain words (null: none found). */
function paramsProblem(method: string, params: unknown): string | null {
  if (method !== 'tools/call' && method !== 'tools/list') return null;
  if (params === undefined) return method === 'tools/call' ? 'params.name is required' : null;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return 'params must be an object';
  const given = params as Record<string, unknown>;
  if (method === 'tools/list') return given.cursor === undefined || typeof given.cursor === 'string' ? null : 'params.cursor must be a string';
  if (typeof given.name !== 'string' || given.name === '') return 'params.name is required and must be a non-empty string (the tool name)';
  if (given.arguments !== undefined && (given.arguments === null || typeof given.arguments !== 'object' || Array.isArray(given.arguments))) {
    return 'params.arguments must be an object';
  }
  return null;
}

function plainly(error: unknown, method: string, logger: Logger): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const issues = (error as { issues?: unknown } | null)?.issues;
  if (Array.isArray(issues)) return rpcFailure(INVALID_PARAMS, `Invalid params: ${describeIssues(issues)}`);
  if (code === INVALID_PARAMS && error instanceof Error && /^(MCP error -?\d+: )?Invalid [\w/]+ request:/.test(error.message)) {
    return rpcFailure(INVALID_PARAMS, `Invalid params for ${method}`);
  }
  if (typeof code === 'number' && Number.isSafeInteger(code) && code !== INTERNAL_ERROR) return error; // the server's own McpErrors
  logger.error(`unhandled error in MCP ${method}`, error instanceof Error ? error.stack : String(error));
  return rpcFailure(INTERNAL_ERROR, 'internal error; it has been logged');
}

/** zod's issues as "params.cursor: expected string", at most three, without its codes or JSON. */
function describeIssues(issues: unknown[]): string {
  const described = issues.slice(0, 3).map((issue) => {
    const { path, message } = issue as { path?: unknown[]; message?: unknown };
    const where = Array.isArray(path) && path.length > 0 ? path.map(String).join('.') : 'the request';
    return `${where}: ${typeof message === 'string' ? message.replace(/^Invalid input: /, '') : 'is not valid'}`;
  });
  return described.join('; ') + (issues.length > 3 ? ` (and ${issues.length - 3} more)` : '');
}
