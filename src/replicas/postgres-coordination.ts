import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Client, Pool } from 'pg';
import type { AppConfig } from '../config/app-config';
import { PostgresRateLimits } from './postgres-rate-limits';
import { ReplicaCoordination, type RateLimits, type ReplicaMessage } from './replica-coordination';

/** The channel every replica LISTENs on. */
const CHANNEL = 'supportdesk_replicas';
/** The session advisory lock the leader holds on its listening connection (the write lock is 0x5d_0001). */
const LEADER_LOCK = 0x5d_0002;
/** The first key of named locks (`exclusively`); the second is the name's hash. */
const NAMED_LOCKS = 0x5d;
/** How often a replica that is not the leader tries to become it, and a lost listening connection is made again. */
export const LEADER_RETRY_MS = 5_000;

/**
 * Replicas of a PostgreSQL deployment (docs/replicas.md). Each keeps one connection of its own open, outside the
 * pools: it LISTENs for what the other replicas tell, and the leader holds a session advisory lock on it. The lock
 * goes with the connection, so when the leader stops or dies (PostgreSQL ends its session), another replica takes
 * it within LEADER_RETRY_MS. A replica that loses its connection stops leading at once and makes it again.
 *
 * The rate limits' buckets are written on a small pool of their own with `synchronous_commit = off`: a bucket is
 * not worth a disk flush per request, and what a crash of the database loses of them is at most a fraction of a
 * second of spending.
 */
export class PostgresCoordination extends ReplicaCoordination implements OnModuleInit, OnApplicationShutdown {
  readonly replicaId = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  private readonly logger = new Logger('Replicas');
  private readonly pool: Pool;
  private readonly listeners: Array<(message: ReplicaMessage) => void> = [];
  private connection: Client | null = null;
  private connecting: Promise<void> | null = null;
  private leading = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private shutdown: Promise<void> | null = null;

  constructor(
    private readonly config: Pick<AppConfig, 'databaseUrl' | 'databaseStatementTimeoutMs'>,
    /** How often leadership and the connection are retried (a test shortens it). */
    private readonly retryMs = LEADER_RETRY_MS,
  ) {
    super();
    this.pool = new Pool({
      connectionString: config.databaseUrl,
      // Rate limits, messages, and one connection per job running `exclusively`.
      max: 6,
      application_name: 'supportdesk-rate-limits',
      options: '-c synchronous_commit=off',
      statement_timeout: config.databaseStatementTimeoutMs || undefined,
    });
    this.pool.on('error', (error) => this.logger.warn(`a rate-limit connection failed: ${error.message}`));
  }

  async onModuleInit(): Promise<void> {
    await this.connect();
    this.timer = setInterval(() => void this.keepUp(), this.retryMs);
    this.timer.unref();
  }

  onApplicationShutdown(): Promise<void> {
    this.shutdown ??= (async () => {
      this.stopped = true;
      if (this.timer) clearInterval(this.timer);
      await this.connecting?.catch(() => undefined);
      const connection = this.connection;
      this.connection = null;
      this.leading = false;
      // Ending the session releases the leader's lock: the next replica takes over without waiting for a timeout.
      await connection?.end().catch(() => undefined);
      await this.pool.end();
    })();
    return this.shutdown;
  }

  isLeader(): boolean {
    return this.leading;
  }

  async tell(message: ReplicaMessage): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, JSON.stringify({ from: this.replicaId, ...message })]);
  }

  onMessage(listener: (message: ReplicaMessage) => void): void {
    this.listeners.push(listener);
  }

  async exclusively<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const connection = await this.pool.connect();
    let held = false;
    try {
      // The two-key form: a key space of its own, apart from the single-key write and leader locks.
      const { rows } = await connection.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', [NAMED_LOCKS, name]);
      held = rows[0].got;
      if (!held) return { ran: false };
      return { ran: true, value: await work() };
    } finally {
      const unlocked = held ? connection.query('SELECT pg_advisory_unlock($1, hashtext($2))', [NAMED_LOCKS, name]).then(() => true, () => false) : true;
      // A connection that could not let go of its lock is closed, which does.
      connection.release((await unlocked) ? undefined : new Error('advisory unlock failed'));
    }
  }

  rateLimits(limit: 'requests' | 'failures', perMinute: number, now: () => number): RateLimits {
    return new PostgresRateLimits(this.pool, limit, perMinute, now);
  }

  private async keepUp(): Promise<void> {
    try {
      if (this.connection === null) await this.connect();
      else if (!this.leading) await this.tryToLead(this.connection);
    } catch (error) {
      this.logger.warn(`replica connection: ${(error as Error).message}; retrying in ${this.retryMs / 1000} s`);
    }
  }

  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      const connection = new Client({ connectionString: this.config.databaseUrl, application_name: 'supportdesk-replica', keepAlive: true });
      connection.on('error', (error) => this.lose(connection, error));
      connection.on('end', () => this.lose(connection, new Error('the connection ended')));
      connection.on('notification', (notification) => this.heard(notification.payload));
      try {
        await connection.connect();
        await connection.query(`LISTEN ${CHANNEL}`);
        if (this.stopped) {
          await connection.end();
          return;
        }
        this.connection = connection;
        await this.tryToLead(connection);
      } catch (error) {
        await connection.end().catch(() => undefined);
        throw error;
      }
    })().finally(() => (this.connecting = null));
    return this.connecting;
  }

  private async tryToLead(connection: Client): Promise<void> {
    const { rows } = await connection.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1) AS got', [LEADER_LOCK]);
    if (rows[0].got && connection === this.connection && !this.leading) {
      this.leading = true;
      this.logger.log(`replica ${this.replicaId} leads: it runs the periodic jobs`);
    }
  }

  private lose(connection: Client, error: Error): void {
    if (connection !== this.connection) return;
    this.connection = null;
    if (this.leading) this.logger.warn(`replica ${this.replicaId} stopped leading: ${error.message}`);
    this.leading = false;
    if (!this.stopped) this.logger.warn(`replica connection lost (${error.message}); reconnecting within ${this.retryMs / 1000} s`);
  }

  private heard(payload: string | undefined): void {
    let message: (ReplicaMessage & { from?: unknown }) | null = null;
    try {
      message = JSON.parse(payload ?? '') as ReplicaMessage & { from?: unknown };
    } catch {
      return;
    }
    if (message === null || message.from === this.replicaId) return;
    for (const listener of this.listeners) listener(message);
  }
}
