import { Injectable, Logger } from '@nestjs/common';
import type { EpisodeCaller } from '../access/principal';
import { translateError } from '../common/errors/error-translator';
import { JSON_RPC, rpcError, rpcResult } from '../common/json-rpc';
import { validateBody } from '../common/validate-body';
import { EpisodesService, ResetRequestDto } from '../episodes';
import { EpisodeTools, toToolResult, type ToolCaller } from './episode-tools.service';
import { McpSessions, type ToolSession } from './mcp-sessions.service';
import { parseToolSchemaVariant, type ToolSchemaVariant } from './tool-schemas';

interface RpcRequest {
  id?: unknown;
  method: string;
  params?: unknown;
}

type Params = Record<string, unknown>;

/**
 * OpenEnv's HTTP dialect of /mcp, as its own server speaks it and its MCPToolClient (production mode) expects:
 * no `initialize`; `openenv/session/create` starts a session, `tools/list` and `tools/call` name it in
 * `params.session_id`, `openenv/session/close` ends it. Here a session is created with a new episode (its params
 * are those of POST /reset, plus `tool_schema`), its tools act on that episode, and closing it leaves the episode
 * as it is. Failed calls are JSON-RPC errors (that client raises on them), with `error_type` as OpenEnv names it.
 */
@Injectable()
export class OpenEnvRpc {
  private readonly logger = new Logger(OpenEnvRpc.name);

  constructor(
    private readonly sessions: McpSessions,
    private readonly tools: EpisodeTools,
    private readonly episodes: EpisodesService,
  ) {}

  /** Whether a message sent without an MCP session header is this dialect's (an MCP client starts with initialize). */
  static claims(message: unknown): message is RpcRequest {
    if (message === null || typeof message !== 'object' || Array.isArray(message)) return false;
    const method = (message as { method?: unknown }).method;
    return typeof method === 'string' && (method.startsWith('openenv/') || method === 'tools/list' || method === 'tools/call');
  }

  async handle(caller: EpisodeCaller, message: RpcRequest): Promise<object> {
    const { id, method } = message;
    const params = message.params ?? {};
    if (params === null || typeof params !== 'object' || Array.isArray(params)) {
      return rpcError(id, JSON_RPC.invalidParams, 'Params must be an object');
    }
    switch (method) {
      case 'openenv/session/create':
        return this.create(caller, id, params as Params);
      case 'openenv/session/close':
        return this.close(caller, id, params as Params);
      case 'tools/list':
        return this.list(caller, id, params as Params);
      case 'tools/call':
        return this.call(caller, id, params as Params);
      default:
        return rpcError(id, JSON_RPC.methodNotFound, `Method not found: ${method}`);
    }
  }

  private async create(caller: EpisodeCaller, id: unknown, params: Params): Promise<object> {
    const { tool_schema, ...resetFields } = params;
    const variant = parseToolSchemaVariant(tool_schema);
    if (variant === null) return invalidToolSchema(id);
    let reset: ResetRequestDto;
    try {
      reset = await validateBody(ResetRequestDto, resetFields);
    } catch (error) {
      return this.errorOf(id, error);
    }
    // The session (its place in the tenant's count) is taken before the reset: a create refused for capacity
    // starts no episode, and concurrent creates cannot all find room for one more.
    const session = await this.sessions.open('openenv', { ...caller, boundEpisodeId: null }, variant);
    if (!('id' in session)) {
      return rpcError(id, JSON_RPC.serverError, `Session capacity reached: this tenant has ${session.active_sessions} of ${session.max_sessions} sessions open`, session);
    }
    try {
      const started = await this.episodes.reset(caller, reset, 'mcp');
      await this.sessions.bind(session, started.episode_id);
      return rpcResult(id, { session_id: session.id, tool_schema: variant, ...started });
    } catch (error) {
      await this.sessions.end(session.id).catch(() => undefined);
      return this.errorOf(id, error);
    }
  }

  private async close(caller: EpisodeCaller, id: unknown, params: Params): Promise<object> {
    const sessionId = params.session_id;
    if (typeof sessionId !== 'string' || sessionId === '') {
      return rpcError(id, JSON_RPC.invalidParams, "Invalid params - 'session_id' is required");
    }
    if (!(await this.sessions.find(sessionId, caller, 'openenv'))) return unknownSession(id, sessionId);
    await this.sessions.end(sessionId);
    return rpcResult(id, { session_id: sessionId, closed: true });
  }

  private async list(caller: EpisodeCaller, id: unknown, params: Params): Promise<object> {
    const session = await this.session(caller, params);
    if (typeof session === 'string') return unknownSession(id, session);
    const variant = params.tool_schema === undefined ? (session?.variant ?? 'full') : parseToolSchemaVariant(params.tool_schema);
    if (variant === null) return invalidToolSchema(id);
    return rpcResult(id, { tools: this.tools.list(variant) });
  }

  private async call(caller: EpisodeCaller, id: unknown, params: Params): Promise<object> {
    const session = await this.session(caller, params);
    if (typeof session === 'string') return unknownSession(id, session);
    if (typeof params.name !== 'string' || params.name === '') return rpcError(id, JSON_RPC.invalidParams, "Missing 'name' in params");
    const toolCaller: ToolCaller = session?.caller ?? { ...caller, boundEpisodeId: null };
    const outcome = await this.tools.call(toolCaller, params.name, params.arguments);
    switch (outcome.kind) {
      case 'ok':
        // `data` is what OpenEnv's client hands back from call_tool (it unwraps FastMCP results the same way).
        return rpcResult(id, { ...toToolResult(outcome), data: outcome.value });
      case 'unknown_tool':
        return rpcError(id, JSON_RPC.invalidParams, `Tool not found: ${params.name}`, { error_type: 'tool_not_found' });
      case 'invalid_args':
        return rpcError(id, JSON_RPC.invalidParams, outcome.message, { error_type: 'invalid_args', details: outcome.details ?? [] });
      case 'failed':
        return rpcError(id, JSON_RPC.serverError, outcome.message, { error_type: 'execution_error', code: outcome.code, status: outcome.status });
    }
  }

  /** A refused reset: the client's mistake is invalid params, anything else a server error; the HTTP code goes along. */
  private errorOf(id: unknown, error: unknown): object {
    const translated = translateError(error);
    if (translated.unexpected) this.logger.error('unhandled error creating an OpenEnv session', error instanceof Error ? error.stack : String(error));
    const data = { code: translated.code, status: translated.status, ...(translated.details ? { details: translated.details } : {}) };
    const code = translated.status === 422 || translated.status === 400 ? JSON_RPC.invalidParams : JSON_RPC.serverError;
    return rpcError(id, code, translated.message, data);
  }

  /** The session named in params (null when none is named), or the unknown id itself. */
  private async session(caller: EpisodeCaller, params: Params): Promise<ToolSession | null | string> {
    const sessionId = params.session_id;
    if (sessionId === undefined || sessionId === null) return null;
    if (typeof sessionId !== 'string') return String(sessionId);
    return (await this.sessions.find(sessionId, caller, 'openenv')) ?? sessionId;
  }
}

/** As OpenEnv's server words it, for an id that was never issued, was closed, or belongs to someone else. */
function unknownSession(id: unknown, sessionId: string): object {
  return rpcError(id, JSON_RPC.invalidParams, `Unknown session_id: ${sessionId}`);
}

function invalidToolSchema(id: unknown): object {
  return rpcError(id, JSON_RPC.invalidParams, 'tool_schema must be one of: full, strict');
}
