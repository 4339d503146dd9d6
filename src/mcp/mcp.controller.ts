import { Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import express, { type Request, type Response } from 'express';
import { Access } from '../auth/access.decorator';
import { CurrentTenant } from '../auth/current-principal.decorator';
import { jsonInputProblem } from '../common/json-input';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EpisodesService } from '../episodes/episodes.service';
import { isJsonRpcMessage, JSON_RPC, rpcError } from './json-rpc';
import { McpSessions } from './mcp-sessions.service';

const SESSION_HEADER = 'mcp-session-id';

/**
 * MCP over streamable HTTP. Malformed JSON-RPC is answered here with an error envelope and HTTP 200 (as
 * OpenEnv's validator expects); well-formed messages go to the SDK transport of their session.
 */
@ApiTags('mcp')
@Access.Tenant()
@Controller('mcp')
export class McpController {
  private readonly parse: express.RequestHandler;

  constructor(
    private readonly sessions: McpSessions,
    private readonly episodes: EpisodesService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.parse = express.json({ limit: config.bodyLimitBytes, strict: false, type: () => true });
  }

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'mcp',
    summary: 'Model Context Protocol (JSON-RPC 2.0, streamable HTTP): initialize, tools/list, tools/call',
  })
  @ApiBody({ schema: { type: 'object', additionalProperties: true, description: 'A JSON-RPC 2.0 message' } })
  @ApiOkResponse({ schema: { type: 'object', additionalProperties: true, description: 'A JSON-RPC 2.0 response' } })
  async post(@CurrentTenant() tenantId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const body = await this.readBody(req, res);
    if (body === undefined) return;
    const problem = jsonInputProblem(body, 'the message');
    if (problem) {
      res.status(400).json(rpcError(null, JSON_RPC.invalidRequest, problem));
      return;
    }
    const id = (body as { id?: unknown })?.id;
    if (!isJsonRpcMessage(body)) {
      res.status(200).json(rpcError(id, JSON_RPC.invalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 message'));
      return;
    }
    const sessionId = req.headers[SESSION_HEADER];
    if (typeof sessionId === 'string') {
      const session = this.sessions.find(sessionId, tenantId);
      if (!session) {
        res.status(404).json(rpcError(id, JSON_RPC.serverError, 'unknown or expired MCP session; initialize a new one'));
        return;
      }
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (!isInitializeRequest(body)) {
      res.status(200).json(rpcError(id, JSON_RPC.serverError, 'no MCP session: send initialize first'));
      return;
    }
    if (this.sessions.countFor(tenantId) >= this.config.maxSessionsPerTenant) {
      res.status(200).json(rpcError(id, JSON_RPC.serverError, `too many MCP sessions for this tenant (at most ${this.config.maxSessionsPerTenant})`));
      return;
    }
    const boundEpisodeId = await this.boundEpisode(req, tenantId);
    if (boundEpisodeId === false) {
      res.status(200).json(rpcError(id, JSON_RPC.invalidParams, 'the episode to bind (x-episode-id) does not exist for this tenant'));
      return;
    }
    const transport = await this.sessions.open({ tenantId, boundEpisodeId });
    await transport.handleRequest(req, res, body);
  }

  @Get()
  @ApiOperation({ operationId: 'mcpStream', summary: 'MCP server-to-client stream of a session (mcp-session-id header)' })
  async stream(@CurrentTenant() tenantId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.forward(tenantId, req, res);
  }

  @Delete()
  @ApiOperation({ operationId: 'mcpClose', summary: 'End an MCP session (mcp-session-id header)' })
  async close(@CurrentTenant() tenantId: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    await this.forward(tenantId, req, res);
  }

  private async forward(tenantId: string, req: Request, res: Response): Promise<void> {
    const sessionId = req.headers[SESSION_HEADER];
    const session = typeof sessionId === 'string' ? this.sessions.find(sessionId, tenantId) : null;
    if (!session) {
      res.status(404).json(rpcError(null, JSON_RPC.serverError, 'unknown or expired MCP session'));
      return;
    }
    await session.transport.handleRequest(req, res);
  }

  /** The episode named at initialize (x-episode-id header or episode_id query), null for none, false if foreign. */
  private async boundEpisode(req: Request, tenantId: string): Promise<string | null | false> {
    const header = req.headers['x-episode-id'];
    const query = req.query.episode_id;
    const episodeId = typeof header === 'string' ? header : typeof query === 'string' ? query : null;
    if (episodeId === null) return null;
    try {
      await this.episodes.observation(tenantId, episodeId);
      return episodeId;
    } catch {
      return false;
    }
  }

  /** The parsed body, or undefined after answering a parse error with a JSON-RPC envelope. */
  private readBody(req: Request, res: Response): Promise<unknown> {
    return new Promise((resolve) => {
      this.parse(req, res, (error?: unknown) => {
        if (error) {
          const tooLarge = (error as { type?: string }).type === 'entity.too.large';
          res.status(tooLarge ? 413 : 200).json(rpcError(null, JSON_RPC.parseError, tooLarge ? 'the message is too large' : 'Parse error: the body is not valid JSON'));
          resolve(undefined);
          return;
        }
        resolve(req.body ?? {});
      });
    });
  }
}
