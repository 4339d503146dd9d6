import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { Mutex } from 'async-mutex';
import { Pool, type PoolClient } from 'pg';
import { UnavailableError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { PrismaClient } from '../generated/prisma/client';
import { PrismaClient as PostgresPrismaClient } from '../generated/prisma-postgres/client';
import { Database } from './database.service';
import type { CommitObserver } from './group-commit';
import type { SqlConnection, WriteWork } from './sql-connection';
import { PostgresConnection } from './postgres-connection';
import { serverOf } from './postgres-migrate';

/** Upper bound on the writes in one transaction (as on SQLite: group-commit.ts). */
const MAX_BATCH = 256;

/**
 * Every server process's batch takes this transaction-level advisory lock first, so batches of all the processes
 * sharing the database commit one at a time. A tenant ledger is one sequence (each entry chains to the one before:
 * ledger/ledger-statements.ts), read and extended inside the batch, and its entries live in three tables that no
 * single constraint spans; one writer at a time keeps the sequence whole, as SQLite's write lock does.
 */
const WRITE_LOCK = 0x5d_0001;

/**
 * A batch's start, in one round trip: the transaction, durable commits whatever the server's or database's default
 * (an answered step must survive a crash: `synchronous_commit = off` would acknowledge it before it is on disk),
 * and the write lock.
 */
const BATCH_BEGIN = `BEGIN; SET LOCAL synchronous_commit TO on; SELECT pg_advisory_xact_lock(${WRITE_LOCK})`;

interface Pending {
  work: WriteWork<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The database on a PostgreSQL server (DATABASE_URL=postgresql://…), with the same two faces as on SQLite:
 * - the Prisma face: the client generated from prisma/postgresql/schema.prisma through @prisma/adapter-pg, one unit
 *   of work at a time per process as on SQLite (the code above relies on that order, not on Prisma's isolation);
 * - the direct face: writes group-committed on one connection of the pool, a batch per transaction, each write in a
 *   savepoint; reads on the pool's other connections, which see committed rows only. A commit is durable when it
 *   returns (synchronous_commit), so every caller is answered after its batch's COMMIT.
 * Statements are the ones SQLite runs, translated once per text (postgres-dialect.ts) and prepared per connection.
 */
@Injectable()
export class PostgresDatabase extends Database implements OnModuleInit, OnApplicationShutdown {
  readonly kind = 'postgresql';
  private readonly logger = new Logger(PostgresDatabase.name);
  private readonly mutex = new Mutex();
  private readonly pool: Pool;
  private readonly client: PostgresPrismaClient;
  private queue: Pending[] = [];
  private scheduled = false;
  private idle: Promise<void> = Promise.resolve();
  private closed = false;
  private shutdown: Promise<void> | null = null;
  private readonly rollbackListeners: Array<() => void> = [];
  private commitObserver: CommitObserver | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
    const pool = { connectionString: config.databaseUrl, max: config.databasePoolSize, statement_timeout: config.databaseStatementTimeoutMs || undefined };
    this.pool = new Pool(pool);
    // A connection the server drops (a restart, a failover) is replaced on the next checkout; the error is only logged.
    this.pool.on('error', (error) => this.logger.warn(`a PostgreSQL connection failed: ${error.message}`));
    this.client = new PostgresPrismaClient({ adapter: new PrismaPg(pool) });
  }

  async onModuleInit(): Promise<void> {
    const { rows } = await this.pool.query<{ fsync: string }>('SHOW fsync');
    if (rows[0]?.fsync !== 'on') {
      this.logger.warn('fsync is off on this PostgreSQL server: a crash of its machine can lose steps that were acknowledged');
    }
    await this.client.$connect();
    this.logger.debug(`PostgreSQL ready: ${serverOf(this.config.databaseUrl)}`);
  }

  /** As on SQLite: commits what is queued, lets the unit of work in flight finish, then closes the pool and Prisma. */
  onApplicationShutdown(): Promise<void> {
    this.shutdown ??= (async () => {
      this.closed = true;
      while (this.queue.length > 0 || this.scheduled) await this.idle;
      await this.mutex.runExclusive(async () => {
        await this.pool.end();
        await this.client.$disconnect();
      });
    })();
    return this.shutdown;
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  serialized<T>(work: (db: PrismaClient) => Promise<T>): Promise<T> {
    return this.mutex.runExclusive(() => {
      if (this.closed) throw new UnavailableError('the server is shutting down; retry shortly');
      // The same models, generated from the same definition: the SQLite client's type describes this one too.
      return work(this.client as unknown as PrismaClient);
    });
  }

  batched<T>(work: WriteWork<T>): Promise<T> {
    if (this.closed) return Promise.reject(new UnavailableError('the server is shutting down; retry shortly'));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work: work as WriteWork<unknown>, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  async read<T>(work: (sql: SqlConnection) => Promise<T> | T): Promise<T> {
    if (this.closed) throw new UnavailableError('the server is shutting down; retry shortly');
    const client = await this.pool.connect();
    try {
      return await work(new PostgresConnection(client));
    } finally {
      client.release();
    }
  }

  /**
   * Already: PostgreSQL makes a commit with synchronous_commit on (every batch's: BATCH_BEGIN) visible to readers
   * only once it is on disk, so whatever a reader saw of a batch is durable.
   */
  durable(): Promise<void> {
    return Promise.resolve();
  }

  observeCommits(observer: CommitObserver): void {
    this.commitObserver = observer;
  }

  onBatchRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  /** One flush at a time, in order: writes submitted in the same turn of the event loop share a batch, as on SQLite. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    this.idle = this.idle.then(() => new Promise<void>((done) => setImmediate(() => void this.flush().finally(done))));
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue.splice(0, MAX_BATCH);
    if (this.queue.length > 0) this.schedule();
    if (batch.length === 0) return;
    const started = performance.now();
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    let client: PoolClient | null = null;
    try {
      client = await this.pool.connect();
      const sql = new PostgresConnection(client);
      await client.query(BATCH_BEGIN);
      for (const pending of batch) {
        await client.query('SAVEPOINT write');
        try {
          outcomes.push({ ok: true, value: await pending.work(sql) });
          await client.query('RELEASE SAVEPOINT write');
        } catch (error) {
          await client.query('ROLLBACK TO SAVEPOINT write');
          await client.query('RELEASE SAVEPOINT write');
          outcomes.push({ ok: false, error });
        }
      }
      await client.query('COMMIT');
      client.release();
    } catch (error) {
      // BEGIN, a savepoint or COMMIT failed (the server went away, a serialization failure): nothing of the batch is
      // kept, and the connection is not reused (its state is unknown).
      client?.release(error as Error);
      for (const pending of batch) pending.reject(new UnavailableError(`the database could not commit the write (${(error as Error).message}); retry`));
      this.rollbackListeners.forEach((listener) => listener());
      return;
    }
    this.commitObserver?.(batch.length, (performance.now() - started) / 1000);
    batch.forEach((pending, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) pending.resolve(outcome.value);
      else pending.reject(outcome.error);
    });
  }
}
