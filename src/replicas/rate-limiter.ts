/**
 * Token buckets by name: each holds up to `perMinute` tokens and refills at `perMinute` a minute, so a caller
 * averages at most `perMinute` requests a minute and may burst up to a minute's worth. In memory, in this process:
 * a SQLite server's rate limits and the log budget. A PostgreSQL deployment's replicas share theirs, the same
 * arithmetic in one statement (postgres-rate-limits.ts).
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perMs: number;

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perMs = perMinute / 60_000;
  }

  /**
   * Spends `count` tokens (one by default), all or none; returns 0 when they were there, otherwise the seconds until
   * they will be (Infinity for more than a full bucket holds).
   */
  take(name: string, count = 1): number {
    if (this.perMinute === 0 || count <= 0) return 0;
    if (count > this.perMinute) return Infinity;
    const bucket = this.refilled(name);
    if (bucket.tokens >= count) {
      bucket.tokens -= count;
      return 0;
    }
    return this.secondsUntil(bucket, count);
  }

  /** Seconds until `name` has a token (0: it has one now), without spending it. */
  wait(name: string): number {
    if (this.perMinute === 0) return 0;
    const bucket = this.refilled(name);
    return bucket.tokens >= 1 ? 0 : this.secondsUntil(bucket, 1);
  }

  /** Forgets buckets that are full again, so the map holds only recently active callers. */
  prune(): void {
    for (const [name] of this.buckets) {
      if (this.refilled(name).tokens >= this.perMinute) this.buckets.delete(name);
    }
  }

  private refilled(name: string): { tokens: number; at: number } {
    const now = this.now();
    let bucket = this.buckets.get(name);
    if (!bucket) {
      bucket = { tokens: this.perMinute, at: now };
      this.buckets.set(name, bucket);
    }
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + (now - bucket.at) * this.perMs);
    bucket.at = now;
    return bucket;
  }

  private secondsUntil(bucket: { tokens: number }, count: number): number {
    return Math.max(1, Math.ceil((count - bucket.tokens) / this.perMs / 1000));
  }
}
