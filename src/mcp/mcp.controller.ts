import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Access } from '../access/access.decorator';
import { MergeRouteConfig } from '../access/route-config';
import { ApiJsonRpcClose, ApiJsonRpcPost, ApiJsonRpcStream } from '../common/api-json-rpc.decorator';
import { CurrentCaller } from '../access/current-principal.decorator';
import type { EpisodeCaller } from '../access/principal';
import { isJsonRpcMessage, JSON_RPC, JSON_RPC_ROUTE, rpcError } from '../common/json-rpc';
import { EpisodesService } from '../episodes';
import { McpSessions, SESSION_HEADER, type ToolSession } from './mcp-sessions.service';
import { OpenEnvRpc } from './openenv-rpc';
import { parseToolSchemaVariant } from './tool-schemas';


/**
 * MCP over streamable HTTP. A body that is not JSON gets a JSON-RPC parse error (the route is flagged JSON-RPC
 * for the error filter), and malformed JSON-RPC an error envelope, both with HTTP 200 as OpenEnv's validator
 * expects; well-formed messages go to the SDK transport of their session, which writes the raw response.
 */
@ApiTags('mcp')
@Controller('mcp')
export class McpController {
  constructor(
    private readonly sessions: McpSessions,
    private readonly openenv: OpenEnvRpc,
    private readonly episodes: EpisodesService,
  ) {}

  @Access.Agent()
  @Post()
  @HttpCode(200)
  @MergeRouteConfig({ [JSON_RPC_ROUTE]: true })
  @ApiOperation({
    operationId: 'mcp',
    summary: 'Model Context Protocol (JSON-RPC 2.0, streamable HTTP): initialize, tools/list, tools/call',
  })
  @ApiJsonRpcPost()
  async post(@CurrentCaller() caller: EpisodeCaller, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = request.body;
    const id = (body as { id?: unknown })?.id;
    if (!isJsonRpcMessage(body)) {
      await reply.code(200).send(rpcError(id, JSON_RPC.invalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 message'));
      return;
    }
    // A query parameter the route documents is checked on every message, as any route checks its query: 400.
    const variant = parseToolSchemaVariant((request.query as Record<string, unknown> | undefined)?.tool_schema);
    if (variant === null) {
      await reply.code(400).send(rpcError(id, JSON_RPC.invalidParams, 'tool_schema must be one of: full, strict'));
      return;
    }
    const sessionId = request.headers[SESSION_HEADER];
    if (typeof sessionId === 'string') {
      const session = await this.sessions.find(sessionId, caller, 'mcp');
      if (!session) {
        await reply.code(404).send(rpcError(id, JSON_RPC.serverError, 'unknown or expired MCP session; initialize a new one'));
        return;
      }
      const transport = await this.sessions.transportFor(session, reply.raw);
      reply.hijack();
      await transport.handleRequest(request.raw, reply.raw, body);
      return;
    }
    if (OpenEnvRpc.claims(body)) {
      await reply.code(200).send(await this.openenv.handle(caller, body));
      return;
    }
    if (!isInitializeRequest(body)) {
      await reply
        .code(200)
        .send(rpcError(id, JSON_RPC.serverError, 'no session: send initialize first (MCP), or openenv/session/create (OpenEnv)'));
      return;
    }
    const boundEpisodeId = await this.boundEpisode(request, caller);
    if (boundEpisodeId === false) {
      await reply.code(200).send(rpcError(id, JSON_RPC.invalidParams, 'the episode to bind (x-episode-id) does not exist for this tenant'));
      return;
    }
    // Counting the tenant's sessions and adding this one are one write, on whichever replica: concurrent
    // initializes cannot all find room for one more.
    const session = await this.sessions.open('mcp', { ...caller, boundEpisodeId }, variant);
    if (!('id' in session)) {
      await reply
        .code(200)
        .send(rpcError(id, JSON_RPC.serverError, `Session capacity reached: this tenant has ${session.active_sessions} of ${session.max_sessions} sessions open`, session));
      return;
    }
    const transport = await this.sessions.transportFor(session, reply.raw);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw, body);
    // An initialize the SDK refused (a client that accepts neither JSON nor an event stream) opened no session.
    if (reply.raw.statusCode >= 400) await this.sessions.end(session.id);
  }

  @Access.Agent()
  @Get()
  @ApiOperation({ operationId: 'mcpStream', summary: 'MCP server-to-client stream of a session (mcp-session-id header)' })
  @ApiJsonRpcStream()
  async stream(@CurrentCaller() caller: EpisodeCaller, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.sessionOf(caller, request);
    if (!session) {
      await reply.code(404).send(rpcError(null, JSON_RPC.serverError, 'unknown or expired MCP session'));
      return;
    }
    if (this.sessions.hasStream(session.id)) {
      // As the SDK's stateful transport answers a second stream of a session.
      await reply.code(409).send(rpcError(null, JSON_RPC.serverError, 'Conflict: Only one SSE stream is allowed per session'));
      return;
    }
    const transport = await this.sessions.transportFor(session, reply.raw, true);
    reply.hijack();
    await transport.handleRequest(request.raw, reply.raw);
  }

  @Access.Agent()
  @Delete()
  @ApiOperation({ operationId: 'mcpClose', summary: 'End an MCP session (mcp-session-id header)' })
  @ApiJsonRpcClose()
  async close(@CurrentCaller() caller: EpisodeCaller, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = await this.sessionOf(caller, request);
    if (!session) {
      await reply.code(404).send(rpcError(null, JSON_RPC.serverError, 'unknown or expired MCP session'));
      return;
    }
    await this.sessions.end(session.id);
    // As the SDK's own transport answers a DELETE it accepted.
    await reply.code(200).send();
  }

  private async sessionOf(caller: EpisodeCaller, request: FastifyRequest): Promise<ToolSession | null> {
    const sessionId = request.headers[SESSION_HEADER];
    return typeof sessionId === 'string' ? this.sessions.find(sessionId, caller, 'mcp') : null;
  }

  /** The episode named at initialize (x-episode-id header or episode_id query), null for none, false if foreign. */
  private async boundEpisode(request: FastifyRequest, caller: EpisodeCaller): Promise<string | null | false> {
    const header = request.headers['x-episode-id'];
    const query = (request.query as Record<string, unknown> | undefined)?.episode_id;
    const episodeId = typeof header === 'string' ? header : typeof query === 'string' ? query : null;
    if (episodeId === null) return null;
    try {
      await this.episodes.observation(caller, episodeId);
      return episodeId;
    } catch {
      return false;
    }
  }
}
