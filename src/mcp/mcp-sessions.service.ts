import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { APP_VERSION } from '../common/app-version';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EpisodeCaller } from '../access/principal';
import { ReplicaCoordination } from '../replicas';
import { KeyRevocations } from '../tenants/key-revocations';
import { EpisodeTools, toToolResult, type ToolCaller } from './episode-tools.service';
import { answerParamErrorsPlainly } from './mcp-param-errors';
import { ProtocolSessionRepository, type ProtocolSessionKind } from './protocol-session.repository';
import type { ToolSchemaVariant } from './tool-schemas';
import { Clock } from '../common/clock';
import { Metrics } from '../metrics';

/** A session found for a request: whom its tools act for, and the form of its tools' schemas. */
export interface ToolSession {
  id: string;
  caller: ToolCaller;
  variant: ToolSchemaVariant;
}

export interface SessionCapacity {
  active_sessions: number;
  max_sessions: number;
}

export const SESSION_HEADER = 'mcp-session-id';

/** Session ids are the UUIDs `open` makes. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** How often streams are checked against their sessions' rows (and idle rows deleted, by the leader). */
const STREAM_CHECK_MS = 30_000;

/** A session's last use is written at most this often (and a tenth of the idle timeout, when that is shorter). */
const MAX_TOUCH_INTERVAL_MS = 10_000;

/**
 * The /mcp sessions of both kinds: MCP's (initialize, then the mcp-session-id header) and OpenEnv's over HTTP
 * (openenv/session/create, then params.session_id). A session is a row of `protocol_sessions`, not state of this
 * process, so any replica serves any session (docs/replicas.md) and a restart keeps them; each request runs on an
 * MCP transport and server of its own (the SDK's stateless mode, the session header handled here). A session
 * belongs to the tenant and key that opened it (anyone else is told it does not exist), counts against the
 * tenant's MAX_SESSIONS_PER_TENANT across every replica, ends when its key is revoked, and after
 * SESSION_IDLE_TIMEOUT_MS of silence. Closing a session never ends its episode, which stays resumable over HTTP.
 */
@Injectable()
export class McpSessions implements OnModuleDestroy {
  private readonly logger = new Logger(McpSessions.name);
  /**
   * The server-to-client streams (GET /mcp) open on this replica, one per session at most (as the SDK's stateful
   * transport allowed), by session id: closed when their session ends here, when another replica says it ended, when
   * the sweep finds its row gone (idle, or a message missed), and when their key is revoked.
   */
  private readonly streams = new Map<string, { transport: StreamableHTTPServerTransport; keyId: string | null }>();
  private readonly sweeper: NodeJS.Timeout;
  private readonly touchMs: number;

  constructor(
    private readonly tools: EpisodeTools,
    private readonly rows: ProtocolSessionRepository,
    revocations: KeyRevocations,
    private readonly replicas: ReplicaCoordination,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    metrics: Metrics,
  ) {
    this.touchMs = Math.min(MAX_TOUCH_INTERVAL_MS, Math.floor(config.sessionIdleTimeoutMs / 10));
    metrics.readOpenSessions('mcp', () => this.rows.countLive(this.liveSince()));
    this.sweeper = setInterval(() => void this.sweep(), Math.min(STREAM_CHECK_MS, config.sessionIdleTimeoutMs)).unref();
    replicas.onMessage((message) => {
      if (message.kind === 'session_ended' && typeof message.sessionId === 'string') this.closeStream(message.sessionId);
    });
    revocations.onRevoked((keyId) => {
      for (const [sessionId, stream] of this.streams) if (stream.keyId === keyId) this.closeStream(sessionId);
      // Every replica hears of a revocation; deleting rows already deleted changes nothing.
      this.rows.endOfKey(keyId).catch((error: unknown) => this.logger.warn(`ending the sessions of a revoked key: ${(error as Error).message}`));
    });
  }

  /**
   * The session with this id and kind, only for the tenant and key that opened it, and only while it is live (a
   * session idle past the timeout is over even before the sweep deletes its row).
   */
  async find(sessionId: string, caller: EpisodeCaller, kind: ProtocolSessionKind): Promise<ToolSession | null> {
    // Ids are UUIDs this server made; anything else names no session (and never reaches the database).
    if (!SESSION_ID.test(sessionId)) return null;
    const row = await this.rows.find(sessionId);
    if (!row || row.kind !== kind || row.tenantId !== caller.tenantId || row.keyId !== caller.keyId) return null;
    const now = this.clock.now();
    if (row.lastUsedMs < this.liveSince(now).getTime()) return null;
    if (now.getTime() - row.lastUsedMs >= this.touchMs) await this.rows.touch(row.id, now);
    return { id: row.id, caller: { ...caller, boundEpisodeId: row.boundEpisodeId }, variant: row.variant };
  }

  /**
   * Opens a session for the caller, unless its tenant has MAX_SESSIONS_PER_TENANT open already (on any replica):
   * counting and adding are one write, so concurrent opens cannot all find room for one more.
   */
  async open(kind: ProtocolSessionKind, caller: ToolCaller, variant: ToolSchemaVariant): Promise<ToolSession | SessionCapacity> {
    const id = randomUUID();
    const now = this.clock.now();
    const max = this.config.maxSessionsPerTenant;
    const session = { id, kind, tenantId: caller.tenantId, keyId: caller.keyId, variant, boundEpisodeId: caller.boundEpisodeId, at: now };
    const opened = await this.rows.openWithin(session, max, this.liveSince(now));
    if (!opened.opened) return { active_sessions: opened.active, max_sessions: max };
    return { id, caller, variant };
  }

  /** Binds the episode a session acts on when a call names none (an OpenEnv session's, once its reset is done). */
  async bind(session: ToolSession, episodeId: string): Promise<ToolSession> {
    await this.rows.bindEpisode(session.id, episodeId);
    return { ...session, caller: { ...session.caller, boundEpisodeId: episodeId } };
  }

  /** Ends a session (its episode stays as it is), and its streams on every replica; whether there was one. */
  async end(id: string): Promise<boolean> {
    const ended = await this.rows.end(id);
    this.closeStream(id);
    await this.replicas.tell({ kind: 'session_ended', sessionId: id }).catch((error: unknown) => this.logger.warn(`telling the replicas a session ended: ${(error as Error).message}`));
    return ended;
  }

  /** Whether this replica holds the session's server-to-client stream open now (one per session). */
  hasStream(sessionId: string): boolean {
    return this.streams.has(sessionId);
  }

  private closeStream(sessionId: string): void {
    const stream = this.streams.get(sessionId);
    if (!stream) return;
    this.streams.delete(sessionId);
    void stream.transport.close().catch(() => undefined);
  }

  /**
   * An MCP transport and server for one request of a session, in the SDK's stateless mode: nothing of the session
   * lives in them, so they go when the response does. A server-to-client stream (GET) stays open until its client
   * closes it, its key is revoked, or this replica stops.
   */
  async transportFor(session: ToolSession, response: ServerResponse, stream = false): Promise<StreamableHTTPServerTransport> {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = this.serverFor(session.caller, session.variant);
    // The SDK's transport runs stateless (the session is a row, not its state): the session's id goes on every
    // response, as a stateful transport sends it.
    response.setHeader(SESSION_HEADER, session.id);
    if (stream) this.streams.set(session.id, { transport, keyId: session.caller.keyId });
    response.on('close', () => {
      if (this.streams.get(session.id)?.transport === transport) this.streams.delete(session.id);
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    await server.connect(transport);
    return transport;
  }

  private serverFor(caller: ToolCaller, variant: ToolSchemaVariant): Server {
    const server = new Server(
      { name: 'supportdesk', version: APP_VERSION },
      {
        capabilities: { tools: {} },
        instructions:
          'Tools act on one SupportDesk episode: the one bound at initialize (x-episode-id header or episode_id query ' +
          'parameter), or the episode_id argument. Start episodes with POST /reset; there is no reset tool.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.tools.list(variant) as never }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const outcome = await this.tools.call(caller, request.params.name, request.params.arguments);
      // MCP: an unknown tool is a protocol error; a call the environment refuses is a result the model can read.
      if (outcome.kind === 'unknown_tool') throw new McpError(ErrorCode.InvalidParams, outcome.message);
      return toToolResult(outcome) as never;
    });
    answerParamErrorsPlainly(server);
    return server;
  }

  private liveSince(now: Date = this.clock.now()): Date {
    return new Date(now.getTime() - this.config.sessionIdleTimeoutMs);
  }

  /**
   * The leader deletes the rows of sessions idle past the timeout (they already count as over: `find`); every
   * replica closes the streams whose session is no longer live (idle, or ended where this replica did not hear it).
   */
  private async sweep(): Promise<void> {
    try {
      if (this.replicas.isLeader()) await this.rows.endIdle(this.liveSince());
      if (this.streams.size === 0) return;
      const live = new Set(await this.rows.liveAmong([...this.streams.keys()], this.liveSince()));
      for (const sessionId of [...this.streams.keys()]) if (!live.has(sessionId)) this.closeStream(sessionId);
    } catch (error) {
      this.logger.warn(`sweeping sessions: ${(error as Error).message}`);
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.streams.values()].map((stream) => stream.transport.close().catch(() => undefined)));
    this.streams.clear();
  }
}
