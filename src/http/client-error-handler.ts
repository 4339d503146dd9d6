import type { Duplex } from 'node:stream';
import { answerRawAndClose } from './raw-http-answer';

/**
 * Requests Node's HTTP parser rejects before the app sees them (headers too large, a malformed request line,
 * a timed-out request) still get the service's JSON error body rather than a bare default. Used as the HTTP
 * platform's client-error handler.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, message] = describe(error.code);
  answerRawAndClose(socket, status, message);
}

function describe(code: string | undefined): [number, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'the request headers are too large'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'the request took too long to arrive'];
    default:
      return [400, 'the request is not valid HTTP'];
  }
}
