/**
 * Token buckets by name: each holds up to `perMinute` tokens and refills at `perMinute` a minute, so a caller
 * averages at most `perMinute` requests a minute and may burst up to a minute's worth. In memory: the limits are
 * per server process.
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

  /** Spends one token; returns 0 when it was there, otherwise the seconds until one will be. */
  take(name: string): number {
    if (this.perMinute === 0) return 0;
    const bucket = this.refilled(name);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return this.secondsUntilOne(bucket);
  }

  /** Seconds until `name` has a token (0: it has one now), without spending it. */
  wait(name: string): number {
    if (this.perMinute === 0) return 0;
    const bucket = this.refilled(name);
    return bucket.tokens >= 1 ? 0 : this.secondsUntilOne(bucket);
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

  private secondsUntilOne(bucket: { tokens: number }): number {
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000));
  }
}
