import type { OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { PrismaClient } from '../generated/prisma/client';
import type { DatabaseKind } from '../config/database-url';
import type { CommitObserver } from './group-commit';
import type { SqlConnection, WriteWork } from './sql-connection';

/**
 * The one database layer, the same two faces on either database:
 * - the Prisma face (`serialized`): one unit of work at a time, in arrival order; everything but the step hot path;
 * - the direct face (`batched`, `read`): the statements of the hot path, writes group-committed, each in its own
 *   savepoint of a batch transaction, every caller answered once its batch is durable.
 * SqliteDatabase (sqlite-database.ts) and PostgresDatabase (postgres-database.ts) implement it; DatabaseModule picks
 * one by DATABASE_URL. The Prisma face's client is typed as the SQLite schema's: the PostgreSQL schema is generated
 * from it (tools/ci/postgres-schema.mjs), so the two clients answer every model query alike.
 */
export abstract class Database implements OnModuleInit, OnApplicationShutdown {
  abstract readonly kind: DatabaseKind;

  /** Connects; a failure here stops the boot rather than serving without a database. */
  abstract onModuleInit(): Promise<void>;

  /**
   * Runs after the HTTP server has closed: commits what is queued, lets the unit of work in flight finish, then
   * closes the connections (503 for anything later).
   */
  abstract onApplicationShutdown(): Promise<void>;

  /** Cheap round trip used by the health check. */
  abstract ping(): Promise<void>;

  /**
   * Runs one unit of database work with no other unit of this process interleaved. `work` must only await the
   * database: anything slower holds every other request back.
   */
  abstract serialized<T>(work: (db: PrismaClient) => Promise<T>): Promise<T>;

  /**
   * Runs a write on the direct connection as part of the next group commit, in submission order; resolves once its
   * batch is committed and durable. A write that throws is rolled back alone (a savepoint). `work` must only await
   * the connection it is given: the batch's other writes wait for it.
   */
  abstract batched<T>(work: WriteWork<T>): Promise<T>;

  /** Runs a read on the direct face: it sees every committed write and no half-written batch of this process. */
  abstract read<T>(work: (sql: SqlConnection) => Promise<T> | T): Promise<T>;

  /**
   * Resolves once every write committed so far is durable: a reader about to publish what it read outside the
   * database (the ledger checkpoint file) waits for this.
   */
  abstract durable(): Promise<void>;

  /** `observer` is told of each group commit once it is durable (its writes and time): what metrics record. */
  abstract observeCommits(observer: CommitObserver): void;

  /** `listener` runs when a whole batch was rolled back, before the next batch: drop state cached from it. */
  abstract onBatchRollback(listener: () => void): void;
}
