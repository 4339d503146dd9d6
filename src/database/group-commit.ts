import type Database from 'better-sqlite3';
import { UnavailableError } from '../common/errors/domain-errors';

/** A prepared statement cache over one connection: the hot path prepares each SQL text once per process. */
export interface SqlConnection {
  statement(sql: string): Database.Statement;
}

/** One write submitted to the group commit: synchronous, it runs inside the batch transaction. */
export type WriteWork<T> = (sql: SqlConnection) => T;

interface Pending {
  work: WriteWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Upper bound on the writes in one transaction, so one flush never holds the event loop for long. */
const MAX_BATCH = 256;

/**
 * Group commit on a direct better-sqlite3 connection. Writes submitted in the same turn of the event loop run
 * in submission order inside one `BEGIN IMMEDIATE … COMMIT`, each in its own savepoint (a write that throws is
 * rolled back alone and its caller gets the error); every caller is answered only after the COMMIT returned,
 * so an acknowledged write is durable under the connection's `synchronous` setting, and one fsync covers the
 * whole batch. The flush is synchronous, so nothing else in this process runs between a write's read and its
 * statements; `exclusive` keeps it from overlapping a unit of work on the Prisma connection.
 */
export class GroupCommit implements SqlConnection {
  private readonly statements = new Map<string, Database.Statement>();
  private queue: Pending[] = [];
  private scheduled = false;
  private idle: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly runInSavepoint: (work: WriteWork<unknown>) => unknown;

  constructor(
    private readonly db: Database.Database,
    private readonly exclusive: (flush: () => void) => Promise<void>,
    /**
     * Told when a whole batch was rolled back (BEGIN or COMMIT failed), before any later batch runs: state
     * cached from that batch's writes is no longer true.
     */
    private readonly onRolledBack: () => void,
  ) {
    // better-sqlite3 turns a transaction function called inside an open transaction into a SAVEPOINT.
    this.runInSavepoint = db.transaction((work: WriteWork<unknown>) => work(this));
  }

  statement(sql: string): Database.Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      prepared = this.db.prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  /** Queues `work` for the next batch; resolves with its result once the batch is committed. */
  write<T>(work: WriteWork<T>): Promise<T> {
    if (this.closed) return Promise.reject(new UnavailableError('the server is shutting down; retry shortly'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Refuses new writes (503), and resolves once every write queued so far has been committed or refused. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.queue.length > 0 || this.scheduled) await this.idle;
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

  private flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0, MAX_BATCH);
    if (this.queue.length > 0) this.schedule();
    if (batch.length === 0) return;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      this.statement('BEGIN IMMEDIATE').run();
      for (const pending of batch) {
        try {
          outcomes.push({ ok: true, value: this.runInSavepoint(pending.work) });
        } catch (error) {
          outcomes.push({ ok: false, error });
        }
      }
      this.statement('COMMIT').run();
    } catch (error) {
      // BEGIN or COMMIT failed (a lock held past the busy timeout, a full disk): nothing of the batch is kept.
      // The callers are answered after this synchronous flush returns, so the rollback comes first for them.
      for (const pending of batch) pending.reject(error);
      this.onRolledBack();
      if (this.db.inTransaction) this.db.prepare('ROLLBACK').run();
      return;
    }
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }
}
