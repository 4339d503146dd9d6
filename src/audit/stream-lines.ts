import { once } from 'node:events';
import type { FastifyReply } from 'fastify';

/**
 * Writes lines as they are produced, waiting for the socket to drain when its buffer is full, so a slow reader
 * holds back the producer instead of the server buffering the whole export. Errors before the first line
 * propagate (and get the service's error body); after it, the response is taken over from the platform and the
 * stream is cut on error, which the client sees as a truncated download rather than a success.
 */
export async function streamLines(
  reply: FastifyReply,
  lines: AsyncIterable<string | Uint8Array>,
  contentType: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  reply.hijack();
  const res = reply.raw;
  res.statusCode = 200;
  res.setHeader('content-type', contentType);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  try {
    for (let item = first; !item.done; item = await iterator.next()) {
      if (res.destroyed) {
        await iterator.return?.();
        return;
      }
      if (!res.write(item.value)) await once(res, 'drain');
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error; // logged by the error filter, which sends nothing once the response has started
  }
}
