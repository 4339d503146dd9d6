import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { APP_VERSION } from '../common/app-version';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EpisodeCaller } from '../access/principal';
import { KeyRevocations } from '../tenants/key-revocations';
import { EpisodeTools, toToolResult, type ToolCaller } from './episode-tools.service';
import { answerParamErrorsPlainly } from './mcp-param-errors';
import type { ToolSchemaVariant } from './tool-schemas';
import { Clock } from '../common/clock';
import { Metrics } from '../metrics';

interface SessionBase {
  caller: ToolCaller;
  /** The form its tools/list serves input schemas in, chosen when the session started. */
  variant: ToolSchemaVariant;
  lastUsed: number;
}

/** An MCP session (initialize, then the mcp-session-id header), served by the official SDK. */
export interface McpSdkSession extends SessionBase {
  kind: 'mcp';
  transport: StreamableHTTPServerTransport;
}

/** An OpenEnv HTTP session (openenv/session/create, then params.session_id), bound to the episode it started. */
export interface OpenEnvSession extends SessionBase {
  kind: 'openenv';
}

type Session = McpSdkSession | OpenEnvSession;

export interface SessionCapacity {
  active_sessions: number;
  max_sessions: number;
}

/**
 * A place in a tenant's session count, taken before the (asynchronous) work of opening a session starts, so that
 * concurrent opens cannot all see room for one more. Opening the session takes the place over; anything else
 * must release it (releasing twice is harmless).
 */
export interface SessionPlace {
  readonly tenantId: string;
  release(): void;
}

/**
 * The /mcp sessions of both kinds. A session belongs to the tenant and key that opened it (anyone else is told it
 * does not exist), counts against the tenant's MAX_SESSIONS_PER_TENANT (the /ws sessions have a cap of the same
 * size of their own), ends when its key is revoked, and is closed after SESSION_IDLE_TIMEOUT_MS of silence. Closing
 * a session never ends its episode, which stays resumable over HTTP.
 */
@Injectable()
export class McpSessions implements OnModuleDestroy {
  private readonly logger = new Logger(McpSessions.name);
  private readonly sessions = new Map<string, Session>();
  /** Places taken by sessions still being opened, per tenant. */
  private readonly opening = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly tools: EpisodeTools,
    revocations: KeyRevocations,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    metrics: Metrics,
  ) {
    metrics.readOpenSessions('mcp', () => this.sessions.size);
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, config.sessionIdleTimeoutMs)).unref();
    revocations.onRevoked((keyId) => {
      for (const [id, session] of this.sessions) if (session.caller.keyId === keyId) this.end(id);
    });
  }

  /** The session with this id and kind, only for the tenant and key that opened it. */
  find<K extends Session['kind']>(sessionId: string, caller: EpisodeCaller, kind: K): Extract<Session, { kind: K }> | null {
    const session = this.sessions.get(sessionId);
    if (!session || session.kind !== kind) return null;
    if (session.caller.tenantId !== caller.tenantId || session.caller.keyId !== caller.keyId) return null;
    session.lastUsed = this.clock.now().getTime();
    return session as Extract<Session, { kind: K }>;
  }

  /**
   * Takes a place for a new session of the tenant, or says it has none left. Counting and taking happen in one
   * synchronous step, and places being opened count as sessions, so MAX_SESSIONS_PER_TENANT holds however many
   * opens run at once.
   */
  reserve(tenantId: string): SessionPlace | SessionCapacity {
    const active = [...this.sessions.values()].filter((s) => s.caller.tenantId === tenantId).length + (this.opening.get(tenantId) ?? 0);
    if (active >= this.config.maxSessionsPerTenant) return { active_sessions: active, max_sessions: this.config.maxSessionsPerTenant };
    this.opening.set(tenantId, (this.opening.get(tenantId) ?? 0) + 1);
    let held = true;
    return {
      tenantId,
      release: () => {
        if (!held) return;
        held = false;
        const left = (this.opening.get(tenantId) ?? 1) - 1;
        if (left <= 0) this.opening.delete(tenantId);
        else this.opening.set(tenantId, left);
      },
    };
  }

  /**
   * A new transport and server for an initialize request, on a place taken with `reserve`; the session is stored
   * (and takes the place over) once the SDK assigns its id.
   */
  async openMcp(caller: ToolCaller, variant: ToolSchemaVariant, place: SessionPlace): Promise<StreamableHTTPServerTransport> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        place.release();
        this.sessions.set(id, { kind: 'mcp', transport, caller, variant, lastUsed: this.clock.now().getTime() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await this.serverFor(caller, variant).connect(transport);
    return transport;
  }

  /** Stores an OpenEnv session on a place taken with `reserve`. */
  openOpenEnv(caller: ToolCaller, variant: ToolSchemaVariant, place: SessionPlace): string {
    const id = randomUUID();
    place.release();
    this.sessions.set(id, { kind: 'openenv', caller, variant, lastUsed: this.clock.now().getTime() });
    return id;
  }

  /** Ends a session (its episode stays as it is). */
  end(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    if (session.kind === 'mcp') {
      session.transport.close().catch((error: unknown) => this.logger.warn(`closing MCP session: ${String(error)}`));
    }
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

  private closeIdle(): void {
    const cutoff = this.clock.now().getTime() - this.config.sessionIdleTimeoutMs;
    for (const [id, session] of this.sessions) if (session.lastUsed < cutoff) this.end(id);
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all(
      [...this.sessions.values()].map((s) => (s.kind === 'mcp' ? s.transport.close().catch(() => undefined) : undefined)),
    );
    this.sessions.clear();
  }
}
