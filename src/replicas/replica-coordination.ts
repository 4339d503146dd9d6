/** Token buckets of one limit (RateLimiter's semantics), in this process or shared by every replica. */
export interface RateLimits {
  /**
   * Spends `count` tokens (one by default) of `name`'s bucket, all or none: 0 when they were there, otherwise the
   * seconds until they will be (Infinity for more than a full bucket holds).
   */
  take(name: string, count?: number): Promise<number>;
  /** Seconds until `name` has a token (0: it has one now), without spending it. */
  wait(name: string): Promise<number>;
  /** Forgets buckets that are full again (run every minute; on PostgreSQL by the leader only). */
  prune(): Promise<void>;
}

/** What one replica tells the others. */
export type ReplicaMessage = { kind: 'key_revoked'; keyId: string } | { kind: 'session_ended'; sessionId: string };

/**
 * What the server processes sharing one database coordinate through it (docs/replicas.md):
 * - who runs the periodic jobs (the idle-expiry and retention sweeps, pruning the rate limits): one replica at a
 *   time, the leader;
 * - messages to the other replicas (a key revoked: their open sessions of it end at once);
 * - the rate limits' token buckets.
 * On SQLite the server is one process: it leads, has nobody to tell and keeps its buckets in memory
 * (single-process-coordination.ts). On PostgreSQL a session advisory lock elects the leader and LISTEN/NOTIFY
 * carries the messages (postgres-coordination.ts).
 */
export abstract class ReplicaCoordination {
  /** This process among the replicas, in logs and /health. */
  abstract readonly replicaId: string;

  /** Whether this process runs the periodic jobs now. On PostgreSQL it can change at any moment. */
  abstract isLeader(): boolean;

  /** Sends a message to every other replica (not to this one): at most once, as soon as the database relays it. */
  abstract tell(message: ReplicaMessage): Promise<void>;

  /** `listener` hears what the other replicas tell. */
  abstract onMessage(listener: (message: ReplicaMessage) => void): void;

  /**
   * Runs `work` unless another process (or this one) is running work of the same name, which it then does not
   * wait for: `{ ran: false }`. On PostgreSQL a session advisory lock on a connection held for the work's length,
   * so a process that dies lets go of it with its connection.
   */
  abstract exclusively<T>(name: string, work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;

  /** The token buckets of a limit of `perMinute` tokens a minute (0: no limit). */
  abstract rateLimits(limit: 'requests' | 'failures', perMinute: number, now: () => number): RateLimits;
}
