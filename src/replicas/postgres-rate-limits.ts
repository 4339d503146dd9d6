import type { Pool } from 'pg';
import { UnavailableError } from '../common/errors/domain-errors';
import type { RateLimits } from './replica-coordination';

/**
 * RateLimiter's token buckets (rate-limiter.ts) in the `rate_buckets` table, so every replica spends from the same
 * bucket. A take is one statement: the bucket refilled for the time since it was last written, and the tokens
 * spent only if there are enough, under the row's lock, so concurrent takes from any number of replicas never
 * overspend. Times are this process's clock (the injected Clock, as in memory); a replica whose clock is behind
 * neither refills a bucket backwards nor moves its time back.
 */
export class PostgresRateLimits implements RateLimits {
  private readonly perMs: number;

  constructor(
    private readonly pool: Pool,
    private readonly limit: 'requests' | 'failures',
    private readonly perMinute: number,
    private readonly now: () => number,
  ) {
    this.perMs = perMinute / 60_000;
  }

  async take(name: string, count = 1): Promise<number> {
    if (this.perMinute === 0 || count <= 0) return 0;
    if (count > this.perMinute) return Infinity;
    const key = this.keyOf(name);
    const now = this.now();
    const taken = await this.pool.query(TAKE, [key, this.perMinute, count, now, this.perMs]).catch(unavailable);
    if (taken.rowCount === 1) return 0;
    return this.secondsUntil(await this.tokens(key, now), count);
  }

  async wait(name: string): Promise<number> {
    if (this.perMinute === 0) return 0;
    const tokens = await this.tokens(this.keyOf(name), this.now());
    return tokens >= 1 ? 0 : this.secondsUntil(tokens, 1);
  }

  /** A bucket untouched for a minute is full again: forgetting it changes nothing. */
  async prune(): Promise<void> {
    await this.pool.query(`DELETE FROM rate_buckets WHERE name LIKE $1 AND at < $2::float8`, [`${this.limit}:%`, this.now() - 60_000]);
  }

  private async tokens(key: string, now: number): Promise<number> {
    const { rows } = await this.pool.query<{ tokens: number }>(TOKENS, [key, this.perMinute, now, this.perMs]).catch(unavailable);
    return rows[0]?.tokens ?? this.perMinute;
  }

  private secondsUntil(tokens: number, count: number): number {
    return Math.max(1, Math.ceil((count - tokens) / this.perMs / 1000));
  }

  private keyOf(name: string): string {
    return `${this.limit}:${name}`;
  }
}

/** $1 bucket, $2 capacity (a minute's tokens), $3 tokens to spend, $4 now (Unix ms), $5 tokens a millisecond. */
const REFILLED = `LEAST($2::float8, b.tokens + GREATEST(0, $4::float8 - b.at) * $5::float8)`;
const TAKE = `
  INSERT INTO rate_buckets AS b (name, tokens, at) VALUES ($1, $2::float8 - $3::float8, $4::float8)
  ON CONFLICT (name) DO UPDATE SET tokens = ${REFILLED} - $3::float8, at = GREATEST(b.at, $4::float8)
  WHERE ${REFILLED} >= $3::float8
  RETURNING b.tokens`;
/** $1 bucket, $2 capacity, $3 now, $4 tokens a millisecond. */
const TOKENS = `SELECT LEAST($2::float8, b.tokens + GREATEST(0, $3::float8 - b.at) * $4::float8) AS tokens FROM rate_buckets b WHERE b.name = $1`;

/** The database cannot be asked (down, or the pool's connections all taken past their wait): the request is a 503. */
function unavailable(error: Error): never {
  throw new UnavailableError(`the rate limits could not be checked (${error.message}); retry shortly`);
}
