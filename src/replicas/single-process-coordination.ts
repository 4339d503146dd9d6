import { randomUUID } from 'node:crypto';
import { RateLimiter } from './rate-limiter';
import { ReplicaCoordination, type RateLimits, type ReplicaMessage } from './replica-coordination';

/** A SQLite server: one process, which leads, has no other replica to tell, and keeps its rate limits in memory. */
export class SingleProcessCoordination extends ReplicaCoordination {
  readonly replicaId = randomUUID();

  isLeader(): boolean {
    return true;
  }

  async tell(_message: ReplicaMessage): Promise<void> {}

  onMessage(_listener: (message: ReplicaMessage) => void): void {}

  private readonly running = new Set<string>();

  async exclusively<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    if (this.running.has(name)) return { ran: false };
    this.running.add(name);
    try {
      return { ran: true, value: await work() };
    } finally {
      this.running.delete(name);
    }
  }

  rateLimits(_limit: 'requests' | 'failures', perMinute: number, now: () => number): RateLimits {
    const limiter = new RateLimiter(perMinute, now);
    return {
      take: async (name, count) => limiter.take(name, count),
      wait: async (name) => limiter.wait(name),
      prune: async () => limiter.prune(),
    };
  }
}
