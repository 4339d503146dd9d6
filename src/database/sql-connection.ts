/** A statement's parameters: positional (`?`), or named (`@name`) from an object's fields. */
export type SqlParams = readonly unknown[] | Readonly<Record<string, unknown>>;

/**
 * The statements of one connection, asynchronous so that the same code runs on a connection whose answers come over
 * the network. Each method prepares its SQL text once per connection. A `Date` parameter is stored as the database
 * stores times (on SQLite: Unix milliseconds, sqlite-timestamp.ts).
 */
export interface SqlConnection {
  /** The first row (undefined: none). */
  get<T>(text: string, params?: SqlParams): Promise<T | undefined>;
  all<T>(text: string, params?: SqlParams): Promise<T[]>;
  /** Runs a statement that returns no rows; how many rows it changed. */
  run(text: string, params?: SqlParams): Promise<{ changes: number }>;
}

/** One write submitted to the group commit: it runs inside the batch transaction, on the batch's connection only. */
export type WriteWork<T> = (sql: SqlConnection) => Promise<T>;
