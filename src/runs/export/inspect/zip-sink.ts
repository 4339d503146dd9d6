import { EventEmitter, once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';

/** The reader of the archive went away (closed or destroyed the stream) before it was written to the end. */
export class ArchiveClosedError extends Error {
  constructor() {
    super('the archive stream was closed before it was complete');
    this.name = 'ArchiveClosedError';
  }
}

/**
 * A ZIP archive written entry by entry, deflated, with backpressure: `add` resolves once the entry is in the
 * archive's stream and the reader has room for more, so a writer that awaits each `add` holds one entry at a
 * time, however many it writes.
 *
 * yazl, because of how Inspect reads an archive: the log viewer (ts-mono apps/inspect
 * src/client/remote/remoteZipFile.ts, parseZipFileEntry) takes an entry's compressed size from its local file
 * header, so an entry must carry its sizes there rather than in a data descriptor after the data. yazl's
 * addBuffer deflates the whole buffer before writing the header and so writes them (general purpose bit 3
 * clear); stream entries (yazl's addReadStream, archiver, fflate's Zip) leave them zero.
 *
 * addBuffer deflates on the thread pool and then writes the entry's header and data to yazl's output stream in
 * one go; the sink knows the entry is written when the bytes yazl has produced (handed on, or still buffered in
 * its stream) have grown.
 */
export class ZipSink {
  readonly stream: Readable;
  private readonly zip = new ZipFile();
  private readonly source: PassThrough;
  private readonly out = new PassThrough();
  private readonly progress = new EventEmitter();
  private delivered = 0;
  private closed = false;

  constructor(private readonly mtime: Date) {
    const source = this.zip.outputStream;
    if (!(source instanceof PassThrough)) throw new TypeError('yazl: outputStream is not a PassThrough stream');
    this.source = source;
    this.stream = this.out;
    const forward = (chunk: Buffer): void => {
      this.delivered += chunk.length;
      if (!this.out.write(chunk)) source.pause();
      this.progress.emit('progress');
    };
    source.on('data', forward);
    source.on('end', () => this.out.end());
    this.out.on('drain', () => {
      source.resume();
      this.progress.emit('progress');
    });
    this.out.on('close', () => {
      this.closed = true;
      source.off('data', forward);
      source.pause();
      this.progress.emit('progress');
    });
    this.zip.on('error', (error: unknown) => this.fail(error));
  }

  /** Adds a deflated entry; resolves when it is written and the reader wants more. */
  async add(name: string, data: Buffer): Promise<void> {
    this.assertOpen();
    const before = this.produced();
    this.zip.addBuffer(data, name, { mtime: this.mtime, compress: true });
    await this.until(() => this.produced() > before && !this.out.writableNeedDrain);
  }

  /** Writes the central directory and ends the stream. */
  end(): void {
    this.assertOpen();
    this.zip.end();
  }

  /** Ends the stream with an error (the reader sees it as the stream's error). */
  fail(error: unknown): void {
    if (this.out.destroyed) return;
    this.out.destroy(error instanceof Error ? error : new Error(String(error)));
  }

  /** Bytes yazl has written: those handed to the reader's stream and those still buffered in yazl's. */
  private produced(): number {
    return this.delivered + this.source.readableLength + this.source.writableLength;
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done()) {
      this.assertOpen();
      await once(this.progress, 'progress');
    }
  }

  private assertOpen(): void {
    if (this.closed || this.out.destroyed) throw new ArchiveClosedError();
  }
}
