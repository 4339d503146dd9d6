import { Writable } from 'node:stream';

type LogLine = Record<string, any>;

/**
 * An in-memory log destination for the app (createApp's `logDestination`): the JSON lines it was given, and a way
 * to wait for a line, since a request's log line is written when its response has finished, which may be just
 * after the client has read it.
 */
export class LogSink {
  readonly lines: LogLine[] = [];
  private readonly waiting: { matches: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];

  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      for (const text of chunk.toString().trim().split('\n')) this.add(JSON.parse(text) as LogLine);
      done();
    },
  });

  /** The first line (already written or still to come) that matches; rejects if none comes within `timeoutMs`. */
  waitFor(matches: (line: LogLine) => boolean, timeoutMs = 5_000): Promise<LogLine> {
    const found = this.lines.find(matches);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no matching log line was written')), timeoutMs);
      this.waiting.push({ matches, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  }

  private add(line: LogLine): void {
    this.lines.push(line);
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      if (this.waiting[i].matches(line)) this.waiting.splice(i, 1)[0].resolve(line);
    }
  }
}
