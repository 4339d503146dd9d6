import { Injectable } from '@nestjs/common';

/** How many complete runs' results stay in memory (each is a few kilobytes). */
const CAPACITY = 256;

/**
 * The results of complete runs, least recently used out first. A complete run's cells never change again, and its
 * results are a pure function of them (the bootstrap is seeded), so a kept copy is never stale.
 */
@Injectable()
export class RunResultsCache {
  private readonly entries = new Map<string, unknown>();

  /** The kept results, or `compute`'s (two readers that miss at once both compute: the results are the same). */
  async get<T>(tenantId: string, runId: string, compute: () => Promise<T>): Promise<T> {
    const key = `${tenantId}\u0000${runId}`;
    if (this.entries.has(key)) {
      const value = this.entries.get(key) as T;
      this.entries.delete(key);
      this.entries.set(key, value);
      return value;
    }
    const value = await compute();
    this.entries.set(key, value);
    if (this.entries.size > CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}
