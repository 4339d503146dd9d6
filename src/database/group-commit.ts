import type Database from 'better-sqlite3';
import { UnavailableError } from '../common/errors/domain-errors';
import type { SqlConnection, WriteWork } from './sql-connection';
import { SqliteConnection } from './sqlite-connection';

interface Pending {
  work: WriteWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Upper bound on the writes in one transaction, so one flush never holds the event loop for long. */
const MAX_BATCH = 256;

/**
 * Makes what the connection has committed durable, off the event loop (an fdatasync of the WAL file on libuv's
 * thread pool), and calls back once it is; an error means it may not be.
 */
export type DurableSync = (done: (error: Error | null) => void) => void;

/**
 * Told of each batch once it is durable: how many writes it held, and the seconds from its BEGIN until its callers
 * could be answered (the commit and, with `sync`, the sync that covered it). Batches rolled back are not told.
 */
export type CommitObserver = (writes: number, seconds: number) => void;

/**
 * Group commit on a direct better-sqlite3 connection. Writes submitted in the same turn of the event loop run
 * in submission order inside one `BEGIN IMMEDIATE … COMMIT`, each in its own savepoint (a write that throws is
 * rolled back alone and its caller gets the error); every caller is answered only after the batch is durable,
 * so an acknowledged write survives a crash, and one sync covers the whole batch. `exclusive` keeps a flush from
 * overlapping a unit of work on the Prisma connection, and reads (`read`) wait while a flush runs, so nothing else
 * in this process uses the connection between a write's read and its statements, and no reader sees a batch
 * half-written. On SQLite every statement answers at once (its promise is already settled), so a flush runs in one
 * turn of the event loop, as it did when it was synchronous.
 *
 * Durable how: with `sync` given, the connection commits without syncing (synchronous=NORMAL) and the batch's
 * callers are answered once `sync` has flushed the WAL to disk: the same durability as synchronous=FULL, but the
 * fsync (0.44 ms measured here) runs on the thread pool while the event loop serves other requests and the next
 * batch is already being written. Without it, the COMMIT itself syncs (or not) as the connection is set.
 */
export class GroupCommit {
  private readonly connection: SqliteConnection;
  private queue: Pending[] = [];
  private scheduled = false;
  private idle: Promise<void> = Promise.resolve();
  private closed = false;
  /** Answers of batches committed but not covered by a sync yet, and whether one is running. */
  private readonly unsynced: Array<(error: Error | null) => void> = [];
  private syncRunning = false;
  /** Told once no batch is waiting for its sync. */
  private readonly syncWaiters: Array<() => void> = [];
  /** Settles when the flush in progress ends (null: none runs); readers wait for it. */
  private flushing: Promise<void> | null = null;
  /** Reads in progress, and the flush waiting for them to end. */
  private readers = 0;
  private readersDone: (() => void) | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly exclusive: (flush: () => Promise<void>) => Promise<void>,
    /**
     * Told when a whole batch was rolled back (BEGIN or COMMIT failed), before any later batch runs: state
     * cached from that batch's writes is no longer true.
     */
    private readonly onRolledBack: () => void,
    private readonly sync: DurableSync | null = null,
    private readonly observe: CommitObserver | null = null,
  ) {
    this.connection = new SqliteConnection(db);
  }

  /** Queues `work` for the next batch; resolves with its result once the batch is committed. */
  write<T>(work: WriteWork<T>): Promise<T> {
    if (this.closed) return Promise.reject(new UnavailableError('the server is shutting down; retry shortly'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work: work as WriteWork<unknown>, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Runs `work` on the connection between flushes: it sees every committed batch and no half-written one. */
  async read<T>(work: (sql: SqlConnection) => Promise<T> | T): Promise<T> {
    while (this.flushing) await this.flushing;
    this.readers++;
    try {
      return await work(this.connection);
    } finally {
      if (--this.readers === 0 && this.readersDone) this.readersDone();
    }
  }

  /** Refuses new writes (503), and resolves once every write queued so far has been committed (and synced) or refused. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.queue.length > 0 || this.scheduled) await this.idle;
    await this.durable();
  }

  /** Resolves once every batch committed so far is durable (what a reader about to publish what it reads needs). */
  durable(): Promise<void> {
    if (!this.syncRunning && this.unsynced.length === 0) return Promise.resolve();
    return new Promise((done) => this.syncWaiters.push(done));
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    // setImmediate runs after the I/O callbacks of this loop turn: requests that arrived together share a batch.
    this.idle = new Promise((done) =>
      setImmediate(() => {
        this.exclusive(() => this.flush())
          .catch(() => undefined)
          .finally(done);
      }),
    );
  }

  private async flush(): Promise<void> {
    let flushed!: () => void;
    this.flushing = new Promise((done) => (flushed = done));
    try {
      if (this.readers > 0) await new Promise<void>((done) => (this.readersDone = done));
      this.readersDone = null;
      await this.flushBatch();
    } finally {
      this.flushing = null;
      flushed();
    }
  }

  private async flushBatch(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue.splice(0, MAX_BATCH);
    if (this.queue.length > 0) this.schedule();
    if (batch.length === 0) return;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    const started = performance.now();
    const statement = (text: string) => this.connection.prepared(text).run();
    try {
      statement('BEGIN IMMEDIATE');
      for (const pending of batch) {
        statement('SAVEPOINT write');
        try {
          const value = await pending.work(this.connection);
          statement('RELEASE write');
          outcomes.push({ ok: true, value });
        } catch (error) {
          statement('ROLLBACK TO write');
          statement('RELEASE write');
          outcomes.push({ ok: false, error });
        }
      }
      statement('COMMIT');
    } catch (error) {
      // BEGIN or COMMIT failed (a lock held past the busy timeout, a full disk): nothing of the batch is kept.
      // The callers are answered after the flush returns, so the rollback comes first for them.
      for (const pending of batch) pending.reject(error);
      this.onRolledBack();
      if (this.db.inTransaction) this.db.prepare('ROLLBACK').run();
      return;
    }
    const answer = (error: Error | null) => {
      if (!error) this.observe?.(batch.length, (performance.now() - started) / 1000);
      batch.forEach((pending, i) => {
        const outcome = outcomes[i];
        if (error) pending.reject(new UnavailableError('the write could not be made durable (the disk failed to sync); retry'));
        else if (outcome.ok) pending.resolve(outcome.value);
        else pending.reject(outcome.error);
      });
    };
    if (!this.sync) return answer(null);
    this.unsynced.push(answer);
    if (!this.syncRunning) this.syncCommitted();
  }

  /**
   * One sync at a time, covering every batch committed before it started: batches committed while it runs wait
   * for the next one, which covers them all (a sync per batch would queue fsyncs behind each other on the disk).
   */
  private syncCommitted(): void {
    const covered = this.unsynced.splice(0);
    this.syncRunning = true;
    this.sync!((error) => {
      this.syncRunning = false;
      // A failed sync leaves the page cache untrustworthy: what was cached from these batches is dropped too.
      if (error) this.onRolledBack();
      for (const answer of covered) answer(error);
      if (this.unsynced.length > 0) this.syncCommitted();
      else for (const waiter of this.syncWaiters.splice(0)) waiter();
    });
  }
}
