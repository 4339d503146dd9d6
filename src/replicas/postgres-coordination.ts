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
/** How long a request waits at most for a rate-limit connection before it is answered 503. */
const POOL_WAIT_MS = 5_000;
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
 * second of spending. Named locks (`exclusively`) hold a connection of their own for the work's length.
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
      // Rate limits and messages: one short statement each.
      max: 4,
      // A request waits this long at most for one of them (then 503), never indefinitely.
      connectionTimeoutMillis: POOL_WAIT_MS,
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

  /**
   * The lock lives on a connection of its own, opened for the work and closed after it (named work is rare and can
   * run for minutes: a tenant's deletion), so it never takes a connection the rate limits need. Closing the
   * connection releases the lock, whatever happened to the work.
   */
  async exclusively<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const connection = new Client({ connectionString: this.config.databaseUrl, application_name: 'supportdesk-named-lock', keepAlive: true });
    connection.on('error', (error) => this.logger.warn(`the connection holding the lock "${name}" failed: ${error.message}`));
    await connection.connect();
    try {
      // The two-key form: a key space of its own, apart from the single-key write and leader locks.
      const { rows } = await connection.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS got', [NAMED_LOCKS, name]);
      if (!rows[0].got) return { ran: false };
      return { ran: true, value: await work() };
    } finally {
      await connection.end().catch(() => undefined);
    }
  }

  rateLimits(limit: 'requests' | 'failures', perMinute: number, now: () => number): RateLimits {
    return new PostgresRateLimits(this.pool, limit, perMinute, now);
  }

  /**
   * Every tick: a lost connection is made again; a replica that does not lead tries to; the leader proves its
   * connection (and so its lock, which lives as long as its session) is still there with a round trip that must
   * come back within the tick. A connection silently cut (a partition, a NAT that forgot it) fails that, and the
   * replica stops leading within two ticks, about when PostgreSQL lets another replica take the lock.
   */
  private async keepUp(): Promise<void> {
    const connection = this.connection;
    try {
      if (connection === null) await this.connect();
      else if (!this.leading) await this.tryToLead(connection);
      else await connection.query('SELECT 1');
    } catch (error) {
      this.logger.warn(`replica connection: ${(error as Error).message}; retrying in ${this.retryMs / 1000} s`);
      if (connection !== null) {
        this.lose(connection, error as Error);
        await connection.end().catch(() => undefined);
      }
    }
  }

  private connect(): Promise<void> {
    this.connecting ??= (async () => {
      const connection = new Client({
        connectionString: this.config.databaseUrl,
        application_name: 'supportdesk-replica',
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        // A statement on this connection that does not come back within a tick means the connection is gone.
        query_timeout: this.retryMs,
        connectionTimeoutMillis: this.retryMs,
      });
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
