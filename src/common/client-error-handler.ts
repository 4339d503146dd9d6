import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Requests Node's HTTP parser rejects before the app sees them (headers too large, a malformed request line,
 * a timed-out request) still get the service's JSON error body rather than Node's bare default.
 */
export function answerClientErrorsWithErrorBody(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (error as { code?: string }).code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const [status, message] = describe(error.code);
    const body = JSON.stringify({ statusCode: status, error: STATUS_CODES[status], message });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
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
