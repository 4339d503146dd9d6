import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpException, Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { WebSocketServer, type WebSocket } from 'ws';
import { Authenticator, presentedKey } from '../auth/authenticator';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EpisodesService } from '../episodes/episodes.service';
import { EpisodeTools } from '../mcp/episode-tools.service';
import { errorMessage, WS_ERROR_CODES } from './ws-protocol';
import { WsSession } from './ws-session';

export const WS_PATH = '/ws';

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
    private readonly authenticator: Authenticator,
    private readonly episodes: EpisodesService,
    private readonly tools: EpisodeTools,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return; // an application context without HTTP (the baseline CLI)
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.config.bodyLimitBytes });
    server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (url.pathname !== WS_PATH) return; // not ours; let other listeners (if any) answer
      this.upgrade(request, socket, head, url).catch((error: unknown) => {
        this.logger.error(`WebSocket upgrade failed: ${String(error)}`);
        socket.destroy();
      });
    });
    this.sweeper = setInterval(() => this.closeIdle(), Math.min(10_000, this.config.sessionIdleTimeoutMs)).unref();
  }

  private async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, url: URL): Promise<void> {
    let tenantId: string;
    try {
      const principal = await this.authenticator.identify(presentedKey(request.headers, url.searchParams.get('api_key')));
      if (principal.kind !== 'tenant') return reject(socket, 403, 'the admin key cannot run episodes; use a tenant key');
      tenantId = principal.tenantId;
    } catch (error) {
      return reject(socket, error instanceof HttpException ? error.getStatus() : 401, (error as Error).message);
    }
    this.wss!.handleUpgrade(request, socket, head, (ws) => this.accept(ws, tenantId));
  }

  private accept(ws: WebSocket, tenantId: string): void {
    const active = [...this.sessions.values()].filter((s) => s.tenantId === tenantId).length;
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
    const session = new WsSession(tenantId, ws, this.episodes, this.tools);
    this.sessions.set(ws, session);
    ws.on('message', (data, isBinary) => session.receive(isBinary ? '' : data.toString()));
    ws.on('close', () => this.sessions.delete(ws));
    ws.on('error', () => this.sessions.delete(ws));
  }

  private closeIdle(): void {
    const cutoff = Date.now() - this.config.sessionIdleTimeoutMs;
    for (const [ws, session] of this.sessions) {
      if (session.lastActive < cutoff) {
        session.send(errorMessage(WS_ERROR_CODES.session, 'session closed after inactivity; the episode can be resumed over HTTP'));
        ws.close(1001, 'idle timeout');
        this.sessions.delete(ws);
      }
    }
  }

  /** Sessions are closed (1001) before the HTTP server closes, so shutdown is not held open by sockets. */
  beforeApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const ws of this.sessions.keys()) ws.close(1001, 'server shutting down');
    this.sessions.clear();
    this.wss?.close();
  }
}

function reject(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ statusCode: status, error: status === 403 ? 'Forbidden' : 'Unauthorized', message });
  socket.end(
    `HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Unauthorized'}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
