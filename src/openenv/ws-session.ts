import { Logger } from '@nestjs/common';
import type { WebSocket } from 'ws';
import { callerOf, type EpisodeCaller, type TenantPrincipal } from '../access/principal';
import type { RequestAuthentication } from '../auth/request-authentication';
import type { Clock } from '../common/clock';
import { UnauthenticatedError } from '../common/errors/domain-errors';
import { APP_VERSION } from '../common/app-version';
import { translateError } from '../common/errors/error-translator';
import { jsonInputProblem } from '../common/json-input';
import { validateBody } from '../common/validate-body';
import { ResetRequestDto, StepBatchRequestDto, StepRequestDto, type EpisodesService, type StepBatch } from '../episodes';
import { isJsonRpcMessage, JSON_RPC, rpcError } from '../common/json-rpc';
import { parseToolSchemaVariant, toToolResult, type EpisodeTools } from '../mcp';
import { parseToolMessage, type ToolMessage } from './tool-messages';
import { WsFlowControl, type Incoming, type WsFlowLimits } from './ws-flow-control';
import { errorMessage, WS_ERROR_CODES, type WsErrorCode } from './ws-protocol';

/** What a session serves its messages with. */
export interface SessionServices {
  episodes: EpisodesService;
  batch: StepBatch;
  tools: EpisodeTools;
  authentication: RequestAuthentication;
}

/**
 * One OpenEnv WebSocket session: bound to the principal of its upgrade request (tenant and key) and to its current
 * episode. Messages are handled one at a time in arrival order, under the connection's flow control (WsFlowControl:
 * a bounded queue, a message rate, and no more answers while the client leaves its earlier ones unread). Each
 * message, valid or not, is checked like an HTTP request (the key is still valid, the tenant is within its rate),
 * and every step goes through the same service as HTTP, so it is persisted, hash-chained and tenant-scoped exactly
 * like an HTTP step.
 */
export class WsSession {
  episodeId: string | null = null;
  /** When the client last sent anything (the server's clock, epoch ms): the gateway closes sessions idle too long. */
  lastActive: number;
  readonly caller: EpisodeCaller;
  private readonly logger = new Logger('WsSession');
  private readonly flow: WsFlowControl;

  private readonly episodes: EpisodesService;
  private readonly batch: StepBatch;
  private readonly tools: EpisodeTools;
  private readonly authentication: RequestAuthentication;

  constructor(
    private readonly principal: TenantPrincipal,
    private readonly socket: WebSocket,
    services: SessionServices,
    limits: WsFlowLimits,
    private readonly clock: Clock,
    /** The id of the upgrade request (in the server log): error bodies of batch items carry it. */
    private readonly upgradeRequestId: string,
  ) {
    ({ episodes: this.episodes, batch: this.batch, tools: this.tools, authentication: this.authentication } = services);
    this.lastActive = clock.now().getTime();
    this.caller = callerOf(principal);
    this.flow = new WsFlowControl(socket, limits, clock, (incoming) => this.handle(incoming), this.logger);
  }

  /** Ends the session with a reason (its episode stays resumable over HTTP with a valid key). */
  end(reason: string): void {
    this.send(errorMessage(WS_ERROR_CODES.session, reason));
    this.close(1008, 'policy violation');
  }

  /** Closes the connection; one whose client has stopped reading is ended at once (see WsFlowControl.stalled). */
  close(code: number, reason: string): void {
    if (this.flow.stalled()) this.socket.terminate();
    else this.socket.close(code, reason);
  }

  receive(data: Buffer, binary: boolean): void {
    this.lastActive = this.clock.now().getTime();
    this.flow.push({ kind: 'message', data, binary });
  }

  /** Answers a message refused before it was read (too large), in its turn among the others. */
  refuse(reason: string): void {
    this.lastActive = this.clock.now().getTime();
    this.flow.push({ kind: 'refused', reason });
  }

  private async handle(incoming: Incoming): Promise<void> {
    // Every message counts against the tenant's rate, whatever it holds: an invalid one costs the server too.
    try {
      await this.authentication.checkMessage(this.principal);
    } catch (error) {
      if (error instanceof UnauthenticatedError) return this.end(error.message);
      return this.sendError(error);
    }
    if (incoming.kind === 'refused') return this.send(errorMessage(WS_ERROR_CODES.validation, incoming.reason));
    let message: { type?: unknown; data?: unknown };
    try {
      message = JSON.parse(incoming.binary ? '' : incoming.data.toString());
    } catch {
      return this.send(errorMessage(WS_ERROR_CODES.invalidJson, 'the message is not valid JSON'));
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      return this.send(errorMessage(WS_ERROR_CODES.invalidJson, 'a message must be a JSON object with a "type"'));
    }
    const problem = jsonInputProblem(message, 'the message');
    if (problem) return this.send(errorMessage(WS_ERROR_CODES.invalidJson, problem));
    try {
      switch (message.type) {
        case 'reset':
          return await this.reset(message.data);
        case 'step':
          return await this.step(message.data);
        case 'step_batch':
          return await this.stepBatch(message.data);
        case 'state':
          return await this.state();
        case 'mcp':
          return this.send({ type: 'mcp', data: await this.mcp(message.data) });
        case 'close':
          this.socket.close(1000, 'closed by client');
          return;
        default:
          return this.send(
            errorMessage(WS_ERROR_CODES.unknownType, `unknown message type ${JSON.stringify(message.type)}; use reset, step, step_batch, state, mcp or close`),
          );
      }
    } catch (error) {
      this.sendError(error);
    }
  }

  private async reset(data: unknown): Promise<void> {
    const body = await validateBody(ResetRequestDto, data ?? {});
    const result = await this.episodes.reset(this.caller, body, 'ws');
    this.episodeId = result.episode_id;
    this.send({ type: 'observation', data: result });
  }

  private async step(data: unknown): Promise<void> {
    const toolMessage = parseToolMessage(data);
    if (toolMessage !== null) return this.toolStep(toolMessage);
    if (this.episodeId === null) throw new SessionError('no episode in this session: send a reset first');
    const body = await validateBody(StepRequestDto, { episode_id: this.episodeId, action: data });
    this.send({ type: 'observation', data: await this.episodes.step(this.caller, body.episode_id, body.action, undefined, 'ws') });
  }

  /**
   * Many steps in one message, on any episodes the session's key may step (not only the session's own): the body
   * of `POST /step/batch`, answered `{type: "step_batch", data: {results}}` with one result per item. The message
   * counted as one request; its other items count too, all or none.
   */
  private async stepBatch(data: unknown): Promise<void> {
    const body = await validateBody(StepBatchRequestDto, data ?? {});
    this.batch.checkSize(body.items);
    await this.authentication.countBatchSteps(this.principal, body.items.length - 1);
    this.send({ type: 'step_batch', data: { results: await this.batch.apply(this.caller, body.items, this.upgradeRequestId) } });
  }

  /**
   * OpenEnv's MCPToolClient (default mode) as step messages: `list_tools` (no reset needed) and `call_tool`,
   * answered as observations the way OpenEnv's MCP environments answer them: a failed call has `result: null` and
   * an `error` with OpenEnv's error_type; an action tool's reward and done are the step's.
   */
  private async toolStep(message: ToolMessage): Promise<void> {
    if (message.type === 'list_tools') {
      const tools = this.tools.list(message.variant).map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
      return this.sendObservation({ tools, metadata: {} }, null, await this.episodeDone());
    }
    const outcome = await this.tools.call({ ...this.caller, boundEpisodeId: this.episodeId }, message.tool_name, message.arguments);
    const observation = (result: unknown, error: { error_type: string; message: string } | null) => ({
      tool_name: message.tool_name,
      result,
      error,
      metadata: {},
    });
    switch (outcome.kind) {
      case 'ok':
        return this.sendObservation(observation({ ...toToolResult(outcome), data: outcome.value }, null), outcome.reward, outcome.done);
      case 'unknown_tool':
        return this.sendObservation(observation(null, { error_type: 'tool_not_found', message: outcome.message }), null, await this.episodeDone());
      case 'invalid_args':
        return this.sendObservation(observation(null, { error_type: 'invalid_args', message: outcome.message }), null, await this.episodeDone());
      case 'failed':
        return this.sendObservation(observation(null, { error_type: 'execution_error', message: outcome.message }), null, await this.episodeDone());
    }
  }

  private sendObservation(observation: unknown, reward: number | null, done: boolean): void {
    this.send({ type: 'observation', data: { observation, reward, done } });
  }

  /** Whether the session's episode has ended (false before the first reset). */
  private async episodeDone(): Promise<boolean> {
    if (this.episodeId === null) return false;
    try {
      return (await this.episodes.currentView(this.caller, this.episodeId)).done;
    } catch {
      return true; // no longer there (deleted with its tenant): nothing more can happen in it
    }
  }

  private async state(): Promise<void> {
    if (this.episodeId === null) throw new SessionError('no episode in this session: send a reset first');
    this.send({ type: 'state', data: await this.episodes.state(this.caller, this.episodeId) });
  }

  /** MCP over the socket: initialize, tools/list and tools/call on the session's episode. */
  private async mcp(data: unknown): Promise<unknown> {
    const id = (data as { id?: unknown })?.id;
    if (!isJsonRpcMessage(data) || Array.isArray(data)) return rpcError(id, JSON_RPC.invalidRequest, 'Invalid Request');
    const { method, params } = data as { method: string; params?: { name?: string; arguments?: unknown; tool_schema?: unknown } };
    const reply = (result: unknown) => ({ jsonrpc: '2.0', id, result });
    switch (method) {
      case 'initialize':
        return reply({
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'supportdesk', version: APP_VERSION },
        });
      case 'tools/list': {
        const variant = parseToolSchemaVariant(params?.tool_schema);
        if (variant === null) return rpcError(id, JSON_RPC.invalidParams, 'tool_schema must be one of: full, strict');
        return reply({ tools: this.tools.list(variant) });
      }
      case 'tools/call': {
        if (typeof params?.name !== 'string') return rpcError(id, JSON_RPC.invalidParams, 'params.name is required');
        const outcome = await this.tools.call({ ...this.caller, boundEpisodeId: this.episodeId }, params.name, params.arguments);
        if (outcome.kind === 'unknown_tool') return rpcError(id, JSON_RPC.invalidParams, outcome.message);
        return reply(toToolResult(outcome));
      }
      default:
        return rpcError(id, JSON_RPC.methodNotFound, `method ${method} is not supported`);
    }
  }

  /** Errors in OpenEnv's codes, worded by the service's one translator (the HTTP status goes along as `status`). */
  private sendError(error: unknown): void {
    if (error instanceof SessionError) return this.send(errorMessage(WS_ERROR_CODES.session, error.message));
    const translated = translateError(error);
    if (translated.unexpected) {
      this.logger.error('unhandled error in a WebSocket session', error instanceof Error ? error.stack : String(error));
    }
    const code: WsErrorCode = translated.code === 'VALIDATION_FAILED' ? WS_ERROR_CODES.validation : WS_ERROR_CODES.execution;
    this.send(
      errorMessage(code, translated.message, {
        status: translated.status,
        ...(translated.details ? { details: translated.details } : {}),
        ...(translated.headers?.['Retry-After'] ? { retry_after_s: Number(translated.headers['Retry-After']) } : {}),
      }),
    );
  }

  send(message: unknown): void {
    this.flow.send(JSON.stringify(message));
  }
}

class SessionError extends Error {}
