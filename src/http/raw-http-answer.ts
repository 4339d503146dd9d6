import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { errorCodeOf, reasonPhrase } from '../common/errors/error-translator';
import type { ErrorBodyDto } from '../common/error-body.dto';

export interface RawAnswerOptions {
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  headers?: Record<string, string>;
  /** The request's id when its headers were read (the client's sane x-request-id); otherwise a new one. */
  requestId?: string;
}

/**
 * Answers on a socket the HTTP layer has not (or no longer) wrapped in a response — a refused upgrade, a
 * connection over its cap, a request Node's parser rejected — with the service's error body (code and request
 * id included, the id also in `x-request-id`), then closes the socket for good: once the answer is flushed it is
 * destroyed, whatever the client does next, so a socket answered here never lingers (a client that never closes
 * its side would otherwise hold a descriptor).
 */
export function answerRawAndClose(socket: Duplex, status: number, message: string, options: RawAnswerOptions = {}): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Whatever else the client sends is read and dropped: closing with unread input would reset the connection
  // and could destroy the answer before the client reads it.
  socket.resume();
  const requestId = options.requestId ?? randomUUID();
  const error = reasonPhrase(status);
  const answer: ErrorBodyDto = { statusCode: status, error, code: errorCodeOf(status), message, request_id: requestId };
  const body = JSON.stringify(answer);
  const extra = Object.entries({ ...options.headers, 'x-request-id': requestId })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${error}\r\nContent-Type: application/json; charset=utf-8\r\n${extra}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  // end()'s callback never runs if the peer stops reading; the socket is destroyed regardless.
  setTimeout(() => socket.destroy(), 2000).unref();
}
