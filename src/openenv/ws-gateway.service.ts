import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocketServer, type WebSocket } from 'ws';
import type { TenantPrincipal } from '../access/principal';
import { RequestAuthentication } from '../auth/request-authentication';
import { Clock } from '../common/clock';
import { translateError } from '../common/errors/error-translator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EpisodesService, StepBatch } from '../episodes';
import { hostOrOriginRefusal } from '../http/host-allow-list';
import { ProxyTrust } from '../http/proxy-trust';
import { answerRawAndClose } from '../http/raw-http-answer';
import { requestIdFrom } from '../http/request-id';
import { EpisodeTools } from '../mcp';
import { Metrics } from '../metrics';
import { KeyRevocations } from '../tenants/key-revocations';
import { errorMessage, WS_ERROR_CODES } from './ws-protocol';
import { WsSession } from './ws-session';

export const WS_PATH = '/ws';

/** Frames up to this many times BODY_LIMIT_BYTES are read (and refused); larger ones close the connection. */
const WS_HARD_LIMIT_FACTOR = 4;

/**
 * OpenEnv WebSocket sessions at /ws, on the same HTTP server. The upgrade request is authenticated like any
 * request (Authorization or X-API-Key header, or an api_key query parameter for clients that cannot set
 * headers). A tenant holds at most MAX_SESSIONS_PER_TENANT sessions; a session silent for
 * SESSION_IDLE_TIMEOUT_MS is closed. Closing a session never ends its episode: it stays resumable over HTTP.
 */
@Injectable()
export class WsGateway implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WsGateway.name);
  private readonly sessions = new Map<WebSocket, WsSession>();
  private wss: WebSocketServer | null = null;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly authentication: RequestAuthentication,
    private readonly episodes: EpisodesService,
    private readonly batch: StepBatch,
    private readonly tools: EpisodeTools,
    revocations: KeyRevocations,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    metrics: Metrics,
  ) {
    metrics.readOpenSessions('ws', () => this.sessions.size);
    // A revoked key's sessions end at once (other processes' revocations are caught by the per-message check).
    revocations.onRevoked((keyId) => {
      for (const session of this.sessions.values()) if (session.caller.keyId === keyId) session.end('the API key of this session has been revoked');
    });
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return; // an application context without HTTP (the baseline CLI)
    // Messages over BODY_LIMIT_BYTES are answered with an error and the session goes on; only far larger frames
    // (which would have to be buffered first) close the connection (1009).
    this.wss = new WebSocketServer({ noServer: true, maxPayload: WS_HARD_LIMIT_FACTOR * this.config.bodyLimitBytes });
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      socket.on('error', () => undefined); // a client that vanishes mid-handshake is not the server's error
      const url = new URL(request.url ?? '/', 'http://localhost');
      const requestId = requestIdFrom(request.headers);
      // Node hands every Upgrade request to this listener and nothing else answers it: a socket left unanswered
      // here would be held forever.
      if (url.pathname !== WS_PATH) {
        return answerRawAndClose(socket, 404, `upgrades are served only at ${WS_PATH} (WebSocket); ${url.pathname.slice(0, 200)} has none`, { requestId });
      }
      if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
        return answerRawAndClose(socket, 400, `${WS_PATH} upgrades to WebSocket only`, { requestId });
      }
      // The same Host and Origin rules as HTTP and /mcp: a web page on another origin cannot open a session.
      const refusal = hostOrOriginRefusal(request, this.config);
      if (refusal) return answerRawAndClose(socket, 403, refusal, { requestId });
      this.upgrade(request, socket, head, url, requestId).catch((error: unknown) => {
        this.logger.error(`WebSocket upgrade failed: ${String(error)}`);
        socket.destroy();
      });
    });
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(10_000, this.config.sessionIdleTimeoutMs)).unref();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL, requestId: string): Promise<void> {
    let principal: TenantPrincipal;
    try {
      // The one key check and rate limit, as for HTTP; this is the only place a key may come in the query string.
      const found = await this.authentication.authenticate('agent', {
        headers: request.headers,
        clientAddress: ProxyTrust.of(this.config).clientAddress(request),
        queryKey: url.searchParams.get('api_key'),
        acceptsQueryKey: true,
      });
      if (found.kind !== 'tenant') throw new Error('authentication let the admin key through to an agent route');
      principal = found;
    } catch (error) {
      const translated = translateError(error);
      if (translated.unexpected) this.logger.error(`WebSocket authentication failed: ${error instanceof Error ? error.stack : String(error)}`);
      return answerRawAndClose(socket, translated.status, translated.message, { headers: translated.headers, requestId });
    }
    this.wss!.handleUpgrade(request, socket, head, (ws) => this.accept(ws, principal, requestId));
  }

  private accept(ws: WebSocket, principal: TenantPrincipal, upgradeRequestId: string): void {
    const active = [...this.sessions.values()].filter((s) => s.caller.tenantId === principal.tenantId).length;
    if (active >= this.config.maxSessionsPerTenant) {
      ws.send(
        JSON.stringify(
          errorMessage(WS_ERROR_CODES.capacity, 'this tenant has reached its limit of concurrent sessions', {
            active_sessions: active,
            max_sessions: this.config.maxSessionsPerTenant,
          }),
        ),
      );
      ws.close(1013, 'capacity reached');
      return;
    }
    const session = new WsSession(principal, ws, { episodes: this.episodes, batch: this.batch, tools: this.tools, authentication: this.authentication }, this.config, this.clock, upgradeRequestId);
    this.sessions.set(ws, session);
    ws.on('message', (data: Buffer, isBinary) => {
      if (data.length > this.config.bodyLimitBytes) {
        session.refuse(`the message is ${data.length} bytes, more than BODY_LIMIT_BYTES (${this.config.bodyLimitBytes})`);
      } else {
        session.receive(data, isBinary);
      }
    });
    ws.on('close', () => this.sessions.delete(ws));
    ws.on('error', () => this.sessions.delete(ws));
  }

  private closeIdle(): void {
    const cutoff = this.clock.now().getTime() - this.config.sessionIdleTimeoutMs;
    for (const [ws, session] of this.sessions) {
      if (session.lastActive < cutoff) {
        session.send(errorMessage(WS_ERROR_CODES.session, 'session closed after inactivity; the episode can be resumed over HTTP'));
        session.close(1001, 'idle timeout');
        this.sessions.delete(ws);
      }
    }
  }

  /** Sessions are closed (1001) before the HTTP server closes, so shutdown is not held open by sockets. */
  beforeApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const session of this.sessions.values()) session.close(1001, 'server shutting down');
    this.sessions.clear();
    this.wss?.close();
  }
}
