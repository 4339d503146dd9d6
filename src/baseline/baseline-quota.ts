import { TooManyError } from '../common/errors/domain-errors';

const HOUR_MS = 3_600_000;

/**
 * How often a tenant may run POST /baseline: each run writes a few dozen finished episodes (the canonical instance
 * and ten seeds of each split, per task), which no cap on active episodes bounds, so one client looping on it
 * would fill the disk. At most one run at a time per tenant, and at most `perHour` in any hour (0: no hourly cap).
 */
export class BaselineQuota {
  private readonly started = new Map<string, number[]>();
  private readonly running = new Set<string>();

  constructor(
    private readonly perHour: number,
    private readonly now: () => number,
  ) {}

  /** Runs `work` for the tenant if its quota allows, or throws a 429 saying when to come back. */
  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    if (this.running.has(tenantId)) throw new TooManyError('a baseline run of this tenant is still in progress; retry when it has finished', 5);
    const now = this.now();
    const recent = (this.started.get(tenantId) ?? []).filter((at) => at > now - HOUR_MS);
    if (this.perHour > 0 && recent.length >= this.perHour) {
      const wait = Math.max(1, Math.ceil((recent[0] + HOUR_MS - now) / 1000));
      throw new TooManyError(`this tenant has run the baseline ${recent.length} times in the last hour, the most allowed (BASELINE_RUNS_PER_HOUR); retry in ${wait} s`, wait);
    }
    this.started.set(tenantId, [...recent, now]);
    this.running.add(tenantId);
    try {
      return await work();
    } finally {
      this.running.delete(tenantId);
    }
  }
}
