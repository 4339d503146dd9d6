import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { answerRawAndClose } from './raw-http-answer';

export interface ConnectionLimits {
  /** Open connections (HTTP keep-alive and WebSocket alike) the server holds at once. */
  maxConnections: number;
  /** Open connections one client address may hold at once. */
  maxConnectionsPerClient: number;
}

/**
 * Caps the sockets the server holds, in total and per client address, so no client can exhaust the process's
 * file descriptors and starve every other tenant. A connection over a cap is answered 503 with the service's
 * error body (naming the limit) and closed; nothing it sends is parsed, so it never reaches authentication or
 * the app. The check sits in front of the server's own 'connection' handling (Node attaches its HTTP parser in
 * a 'connection' listener, and a later listener could not stop a request from being parsed and run).
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const perClient = new Map<string, number>();
  let total = 0;
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event !== 'connection') return emit(event, ...args);
    const socket = args[0] as Socket;
    const address = socket.remoteAddress;
    if (address === undefined) {
      socket.destroy(); // the client is already gone
      return true;
    }
    const mine = perClient.get(address) ?? 0;
    if (total >= limits.maxConnections || mine >= limits.maxConnectionsPerClient) {
      const which =
        total >= limits.maxConnections
          ? `the server holds its maximum of ${limits.maxConnections} connections (MAX_CONNECTIONS)`
          : `this client address holds its maximum of ${limits.maxConnectionsPerClient} connections (MAX_CONNECTIONS_PER_CLIENT)`;
      socket.on('error', () => undefined);
      answerRawAndClose(socket, 503, `${which}; close idle connections or retry shortly`, { 'Retry-After': '1' });
      return true;
    }
    total += 1;
    perClient.set(address, mine + 1);
    socket.once('close', () => {
      total -= 1;
      const left = (perClient.get(address) ?? 1) - 1;
      if (left <= 0) perClient.delete(address);
      else perClient.set(address, left);
    });
    return emit(event, ...args);
  }) as typeof server.emit;
}
