import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { Mutex } from 'async-mutex';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PrismaClient } from '../generated/prisma/client';

/**
 * Owns the process's one Prisma client. The better-sqlite3 adapter shares a single connection, so a query
 * issued while another request's interactive transaction is open would run inside that transaction
 * (prisma/prisma#29933). The client is therefore private and `serialized` is the only way to reach it:
 * one unit of work at a time, in arrival order.
 */
@Injectable()
export class PrismaService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PrismaService.name);
  private readonly mutex = new Mutex();
  private readonly client: PrismaClient;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.client = new PrismaClient({
      adapter: new PrismaBetterSQLite3({ url: config.databaseUrl, timeout: config.sqliteBusyTimeoutMs }),
    });
  }

  /** Connects and sets the pragmas; a failure here stops the boot rather than serving without a database. */
  async onModuleInit(): Promise<void> {
    await this.client.$connect();
    // WAL lets the file be read while a write is committing. FULL syncs the WAL on every commit, so an
    // acknowledged step survives power loss as well as a process crash; NORMAL trades that for throughput.
    await this.client.$queryRawUnsafe('PRAGMA journal_mode = WAL');
    await this.client.$executeRawUnsafe(`PRAGMA synchronous = ${this.config.sqliteSynchronous}`);
    await this.client.$queryRawUnsafe(`PRAGMA busy_timeout = ${this.config.sqliteBusyTimeoutMs}`);
    await this.client.$executeRawUnsafe('PRAGMA foreign_keys = ON');
    this.logger.log(`SQLite ready (WAL, synchronous=${this.config.sqliteSynchronous})`);
  }

  async onModuleDestroy(): Promise<void> {
    // Let the unit of work in flight finish, then close the connection cleanly.
    await this.mutex.runExclusive(() => this.client.$disconnect());
  }

  /** Cheap round trip used by the health check. */
  ping(): Promise<void> {
    return this.serialized(async (db) => {
      await db.$queryRawUnsafe('SELECT 1');
    });
  }

  /**
   * Runs one unit of database work with no other query interleaved. `work` must only await the database:
   * anything slower holds every other request back.
   */
  serialized<T>(work: (db: PrismaClient) => Promise<T>): Promise<T> {
    return this.mutex.runExclusive(() => work(this.client));
  }
}
