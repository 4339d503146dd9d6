import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { APP_VERSION } from '../common/app-version';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EpisodeCaller } from '../access/principal';
import { KeyRevocations } from '../tenants/key-revocations';
import { EpisodeTools, type ToolCaller } from './episode-tools.service';

interface McpSession {
  transport: StreamableHTTPServerTransport;
  caller: ToolCaller;
  lastUsed: number;
}

/**
 * MCP sessions over streamable HTTP (the official SDK's server and transport). A session belongs to the tenant
 * that initialized it, may be bound to an episode, and is closed after SESSION_IDLE_TIMEOUT_MS of silence.
 */
@Injectable()
export class McpSessions implements OnModuleDestroy {
  private readonly logger = new Logger(McpSessions.name);
  private readonly sessions = new Map<string, McpSession>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly tools: EpisodeTools,
    revocations: KeyRevocations,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(60_000, config.sessionIdleTimeoutMs)).unref();
    // A revoked key's sessions end at once.
    revocations.onRevoked((keyId) => {
      for (const [id, session] of this.sessions) if (session.caller.keyId === keyId) this.end(id, session);
    });
  }

  /** The session with this id, only for the tenant and key that opened it. */
  find(sessionId: string, caller: EpisodeCaller): McpSession | null {
    const session = this.sessions.get(sessionId);
    if (!session || session.caller.tenantId !== caller.tenantId || session.caller.keyId !== caller.keyId) return null;
    session.lastUsed = Date.now();
    return session;
  }

  countFor(tenantId: string): number {
    return [...this.sessions.values()].filter((s) => s.caller.tenantId === tenantId).length;
  }

  /** A new transport and server for an initialize request; the session is stored once the SDK assigns its id. */
  async open(caller: ToolCaller): Promise<StreamableHTTPServerTransport> {
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.sessions.set(id, { transport, caller, lastUsed: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.sessions.delete(transport.sessionId);
    };
    await this.serverFor(caller).connect(transport);
    return transport;
  }

  private serverFor(caller: ToolCaller): Server {
    const server = new Server(
      { name: 'supportdesk', version: APP_VERSION },
      {
        capabilities: { tools: {} },
        instructions:
          'Tools act on one SupportDesk episode: the one bound at initialize (x-episode-id header or episode_id query ' +
          'parameter), or the episode_id argument. Start episodes with POST /reset; there is no reset tool.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: this.tools.list() as never }));
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      this.tools.call(caller, request.params.name, request.params.arguments),
    );
    return server;
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.config.sessionIdleTimeoutMs;
    for (const [id, session] of this.sessions) {
      if (session.lastUsed < cutoff) this.end(id, session);
    }
  }

  private end(id: string, session: McpSession): void {
    this.sessions.delete(id);
    session.transport.close().catch((error: unknown) => this.logger.warn(`closing MCP session: ${String(error)}`));
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => s.transport.close().catch(() => undefined)));
    this.sessions.clear();
  }
}
