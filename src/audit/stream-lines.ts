import { once } from 'node:events';
import type { Response } from 'express';

/**
 * Writes lines as they are produced, waiting for the socket to drain when its buffer is full, so a slow reader
 * holds back the producer instead of the server buffering the whole export. Errors before the first line
 * propagate (and get the service's error body); after it, the stream is cut, which the client sees as a
 * truncated download rather than a success.
 */
export async function streamLines(res: Response, lines: AsyncIterable<string>, contentType: string): Promise<void> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  res.status(200).setHeader('content-type', contentType);
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
    throw error;
  }
}
