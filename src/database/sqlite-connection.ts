import type Database from 'better-sqlite3';
import type { SqlConnection, SqlParams } from './sql-connection';
import { sqliteTimestamp } from './sqlite-timestamp';

/**
 * SqlConnection over a better-sqlite3 connection: each SQL text prepared once, every answer already settled (the
 * statements themselves are synchronous). Dates become the stored form of a time; objects bind `@name` parameters.
 */
export class SqliteConnection implements SqlConnection {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** The prepared statement of `text`, prepared on first use. */
  prepared(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(sqliteText(text));
      this.statements.set(text, statement);
    }
    return statement;
  }

  async get<T>(text: string, params?: SqlParams): Promise<T | undefined> {
    return this.prepared(text).get(...bound(params)) as T | undefined;
  }

  async all<T>(text: string, params?: SqlParams): Promise<T[]> {
    return this.prepared(text).all(...bound(params)) as T[];
  }

  async run(text: string, params?: SqlParams): Promise<{ changes: number }> {
    return { changes: this.prepared(text).run(...bound(params)).changes };
  }
}

/**
 * A statement's text as SQLite runs it. `epoch_ms(t)`, a stored time as Unix milliseconds, is the time itself here
 * (SQLite stores times so); PostgreSQL's migration defines the function for its timestamps.
 */
export function sqliteText(text: string): string {
  return text.replaceAll('epoch_ms(', '(');
}

/** better-sqlite3's arguments for `params`: the positional values, or the one object of named ones. */
function bound(params: SqlParams | undefined): unknown[] {
  if (params === undefined) return [];
  if (Array.isArray(params)) return params.map(storedValue);
  return [Object.fromEntries(Object.entries(params).map(([name, value]) => [name, storedValue(value)]))];
}

function storedValue(value: unknown): unknown {
  return value instanceof Date ? sqliteTimestamp(value) : value;
}
