import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ProxyTrust } from './proxy-trust';
import { answerRawAndClose } from './raw-http-answer';

export interface ConnectionLimits {
  /** Open connections (HTTP keep-alive and WebSocket alike) the server holds at once. */
  maxConnections: number;
  /** Open connections one client address may hold at once. */
  maxConnectionsPerClient: number;
}

interface Connection {
  socket: Socket;
  address: string;
  /** Requests read on it and not yet answered. */
  inFlight: number;
  /** Handed to the WebSocket server (or being authenticated for it): never idle in the HTTP sense. */
  upgraded: boolean;
  released: boolean;
}

/**
 * Caps the sockets the server holds, in total and per client address, so no client can exhaust the process's
 * file descriptors and starve every other tenant. At the total cap a newcomer is not simply refused: the
 * connection idle the longest (an HTTP connection with no request in flight — a keep-alive socket, or one that
 * never finished sending a request) is closed to make room, so clients reconnecting idle sockets cannot keep the
 * server full; only when every connection is busy (a request in flight, or a WebSocket) is the newcomer refused.
 * A connection over a cap is answered 503 with the service's error body (naming the limit) and closed; nothing it
 * sends is parsed, so it never reaches authentication or the app. The per-address cap does not apply to the
 * trusted proxies (TRUSTED_PROXIES), whose connections carry every client. The check sits in front of the
 * server's own 'connection' handling (Node attaches its HTTP parser in a 'connection' listener, and a later
 * listener could not stop a request from being parsed and run).
 */
export function limitConnections(server: Server, limits: ConnectionLimits, trust: ProxyTrust): void {
  const perClient = new Map<string, number>();
  // Least recently active first: a connection is moved to the end whenever a request starts or ends on it.
  const byActivity = new Map<Socket, Connection>();
  let total = 0;

  const release = (connection: Connection) => {
    if (connection.released) return;
    connection.released = true;
    byActivity.delete(connection.socket);
    total -= 1;
    const left = (perClient.get(connection.address) ?? 1) - 1;
    if (left <= 0) perClient.delete(connection.address);
    else perClient.set(connection.address, left);
  };
  const touch = (connection: Connection) => {
    if (connection.released) return;
    byActivity.delete(connection.socket);
    byActivity.set(connection.socket, connection);
  };
  const longestIdle = (): Connection | null => {
    for (const connection of byActivity.values()) if (connection.inFlight === 0 && !connection.upgraded) return connection;
    return null;
  };

  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]) => {
    if (event === 'request') {
      const [request, response] = args as [IncomingMessage, ServerResponse];
      const connection = byActivity.get(request.socket as Socket);
      if (connection) {
        connection.inFlight += 1;
        touch(connection);
        response.once('close', () => {
          connection.inFlight -= 1;
          touch(connection);
        });
      }
      return emit(event, ...args);
    }
    if (event === 'upgrade') {
      const connection = byActivity.get(args[1] as Socket);
      if (connection) connection.upgraded = true;
      return emit(event, ...args);
    }
    if (event !== 'connection') return emit(event, ...args);
    const socket = args[0] as Socket;
    const address = socket.remoteAddress;
    if (address === undefined) {
      socket.destroy(); // the client is already gone
      return true;
    }
    const mine = perClient.get(address) ?? 0;
    if (mine >= limits.maxConnectionsPerClient && !trust.trusts(address)) {
      return refuse(socket, `this client address holds its maximum of ${limits.maxConnectionsPerClient} connections (MAX_CONNECTIONS_PER_CLIENT)`);
    }
    if (total >= limits.maxConnections) {
      const idle = longestIdle();
      if (idle === null) return refuse(socket, `the server holds its maximum of ${limits.maxConnections} connections (MAX_CONNECTIONS), all of them busy`);
      release(idle);
      idle.socket.destroy();
    }
    const connection: Connection = { socket, address, inFlight: 0, upgraded: false, released: false };
    total += 1;
    perClient.set(address, (perClient.get(address) ?? 0) + 1);
    byActivity.set(socket, connection);
    socket.once('close', () => release(connection));
    return emit(event, ...args);
  }) as typeof server.emit;
}

function refuse(socket: Socket, which: string): true {
  socket.on('error', () => undefined);
  answerRawAndClose(socket, 503, `${which}; close idle connections or retry shortly`, { headers: { 'Retry-After': '1' } });
  return true;
}
