import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { Mutex } from 'async-mutex';
import { closeSync, fdatasync, openSync } from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { UnavailableError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { prepareDatabaseFile } from '../config/database-url';
import { PrismaClient } from '../generated/prisma/client';
import { Database } from './database.service';
import { GroupCommit, type CommitObserver, type DurableSync } from './group-commit';
import type { SqlConnection, WriteWork } from './sql-connection';

/**
 * The database on SQLite: the file and its two faces, which share one lock.
 *
 * - The Prisma face (`serialized`): Prisma's better-sqlite3 adapter shares a single connection, so a query
 *   issued while another request's interactive transaction is open would run inside that transaction
 *   (prisma/prisma#29933). The client is therefore private and `serialized` is the only way to reach it: one
 *   unit of work at a time, in arrival order. Everything but the step hot path uses it.
 * - The direct face (`batched`, `read`): a Prisma model query costs about 0.5 ms of CPU, the same statement on
 *   better-sqlite3 a few microseconds. Reset and step write on a second, direct connection with group commit;
 *   its flushes take the same lock, so the two connections never hold transactions at once.
 */
@Injectable()
export class SqliteDatabase extends Database implements OnModuleInit, OnApplicationShutdown {
  readonly kind = 'sqlite';
  private readonly logger = new Logger(SqliteDatabase.name);
  private readonly mutex = new Mutex();
  private readonly client: PrismaClient;
  private direct: BetterSqlite3.Database | null = null;
  private groupCommit: GroupCommit | null = null;
  private walSync: WalSync | null = null;
  private readonly rollbackListeners: Array<() => void> = [];
  private commitObserver: CommitObserver | null = null;
  /** Set once the connections are closed: Prisma would otherwise reopen one on the next query. */
  private closed = false;
  private shutdown: Promise<void> | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    super();
    this.client = new PrismaClient({
      // Times are stored as Unix milliseconds (sqlite-timestamp.ts): 6 bytes where ISO text took 29, in every row
      // and in every index that orders by time.
      adapter: new PrismaBetterSQLite3({ url: config.databaseUrl, timeout: config.sqliteBusyTimeoutMs }, { timestampFormat: 'unixepoch-ms' }),
    });
  }

  /** Connects and sets the pragmas; a failure here stops the boot rather than serving without a database. */
  async onModuleInit(): Promise<void> {
    // Readable by this user only (main.ts does it before migrating; apps built without main.ts get it here).
    prepareDatabaseFile(this.config.databaseUrl);
    await this.client.$connect();
    // WAL lets the file be read while a write is committing. FULL syncs the WAL on every commit, so an
    // acknowledged step survives power loss as well as a process crash; NORMAL trades that for throughput.
    await this.client.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await this.client.$executeRawUnsafe(`PRAGMA synchronous = ${this.config.sqliteSynchronous}`);
    await this.client.$queryRawUnsafe(`PRAGMA busy_timeout = ${this.config.sqliteBusyTimeoutMs}`);
    await this.client.$executeRawUnsafe('PRAGMA foreign_keys = ON');
    // The same settings on the direct connection (journal_mode is a property of the file, set above).
    const file = this.config.databaseUrl.slice('file:'.length);
    this.direct = new BetterSqlite3(file, { timeout: this.config.sqliteBusyTimeoutMs });
    // FULL on the direct connection is kept by syncing its WAL after each batch off the event loop (GroupCommit):
    // the connection itself commits as NORMAL, without the fsync that would hold the loop.
    // A first read opens the WAL file (SQLite creates it with the connection's first transaction).
    this.direct.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    const walSync = this.config.sqliteSynchronous === 'FULL' ? walSyncOf(file, this.logger) : null;
    this.direct.pragma(`synchronous = ${walSync ? 'NORMAL' : this.config.sqliteSynchronous}`);
    this.direct.pragma('foreign_keys = ON');
    this.groupCommit = new GroupCommit(
      this.direct,
      (flush) => this.mutex.runExclusive(flush),
      () => this.rollbackListeners.forEach((listener) => listener()),
      walSync?.sync ?? null,
      (writes, seconds) => this.commitObserver?.(writes, seconds),
    );
    this.walSync = walSync;
    this.logger.debug(`SQLite ready: ${this.config.databaseUrl.slice('file:'.length)} (WAL, synchronous=${this.config.sqliteSynchronous}${walSync ? ', steps synced off the event loop' : ''})`);
  }

  /**
   * Runs after the HTTP server has closed (Nest closes it after the destroy hooks), so no request still in flight
   * finds the database gone. Commits what is queued, lets the unit of work in flight finish, then closes both
   * connections cleanly (the last close checkpoints and removes the WAL).
   */
  onApplicationShutdown(): Promise<void> {
    this.shutdown ??= (async () => {
      await this.groupCommit?.close();
      await this.mutex.runExclusive(async () => {
        this.closed = true;
        this.direct?.close();
        this.walSync?.close();
        await this.client.$disconnect();
      });
    })();
    return this.shutdown;
  }

  ping(): Promise<void> {
    return this.serialized(async (db) => {
      await db.$queryRawUnsafe('SELECT 1');
    });
  }

  serialized<T>(work: (db: PrismaClient) => Promise<T>): Promise<T> {
    return this.mutex.runExclusive(() => {
      if (this.closed) throw new UnavailableError('the server is shutting down; retry shortly');
      return work(this.client);
    });
  }

  batched<T>(work: WriteWork<T>): Promise<T> {
    return this.commits().write(work);
  }

  /** Between group-commit flushes (GroupCommit.read). */
  read<T>(work: (sql: SqlConnection) => Promise<T> | T): Promise<T> {
    if (this.closed) return Promise.reject(new UnavailableError('the server is shutting down; retry shortly'));
    return this.commits().read(work);
  }

  /** Readers see a batch as soon as it is committed, a moment before its sync returns (its writers are answered only after). */
  durable(): Promise<void> {
    return this.groupCommit?.durable() ?? Promise.resolve();
  }

  observeCommits(observer: CommitObserver): void {
    this.commitObserver = observer;
  }

  onBatchRollback(listener: () => void): void {
    this.rollbackListeners.push(listener);
  }

  private commits(): GroupCommit {
    if (!this.groupCommit) throw new UnavailableError('the database is not connected yet');
    return this.groupCommit;
  }
}

interface WalSync {
  sync: DurableSync;
  close(): void;
}

/**
 * Syncs the database's WAL file (`<file>-wal`, which SQLite keeps while connections are open) with fdatasync on
 * libuv's thread pool: everything the direct connection committed before the call is on disk when it calls back.
 * A failed sync is fatal, as in PostgreSQL: after it the page cache can no longer be trusted to reach the disk, and
 * the batch is committed but not known durable, so the process exits (a supervisor restarts it; the database
 * recovers from its WAL). Null when the WAL file cannot be opened: the connection then syncs every COMMIT itself.
 */
function walSyncOf(file: string, logger: Logger): WalSync | null {
  let fd: number;
  try {
    fd = openSync(`${file}-wal`, 'r+');
  } catch {
    return null;
  }
  return {
    sync: (done) =>
      fdatasync(fd, (error) => {
        if (error) {
          logger.error(`could not sync the database's WAL (${error.code ?? error.message}); stopping, since committed steps may not be durable`);
          process.exitCode = 70;
          setImmediate(() => process.exit(70));
        }
        done(error);
      }),
    close: () => closeSync(fd),
  };
}
