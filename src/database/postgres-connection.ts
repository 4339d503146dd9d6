import { types, type ClientBase, type QueryResult } from 'pg';
import type { SqlConnection, SqlParams } from './sql-connection';
import { postgresValues, toPostgres, type TranslatedStatement } from './postgres-dialect';

/*
 * Rows read from PostgreSQL take the shapes SQLite's do, so the code above the connection reads both alike:
 * - a 64-bit integer (COUNT(*), a BIGINT column) as a number, not a string: every count and time here is well
 *   within 2^53;
 * - a `timestamptz` as Unix milliseconds, as SQLite stores every time (sqlite-timestamp.ts); a row's time is read
 *   with `new Date(value)` either way.
 * These are pg's process-wide parsers: set once, when this module loads, for every pg connection of the process
 * (the migration runner reads only text and its own table, which they do not touch).
 */
const INT8 = 20;
const TIMESTAMPTZ = 1184;
types.setTypeParser(INT8, (value) => Number(value));
types.setTypeParser(TIMESTAMPTZ, (value) => Date.parse(value));

/** SqlConnection over one pg client (a pool's or a dedicated one): statements translated once, named and prepared by PostgreSQL. */
export class PostgresConnection implements SqlConnection {
  private static readonly translations = new Map<string, TranslatedStatement & { name: string }>();

  constructor(private readonly client: ClientBase) {}

  async get<T>(text: string, params?: SqlParams): Promise<T | undefined> {
    return (await this.query(text, params)).rows[0] as T | undefined;
  }

  async all<T>(text: string, params?: SqlParams): Promise<T[]> {
    return (await this.query(text, params)).rows as T[];
  }

  async run(text: string, params?: SqlParams): Promise<{ changes: number }> {
    return { changes: (await this.query(text, params)).rowCount ?? 0 };
  }

  private query(text: string, params: SqlParams | undefined): Promise<QueryResult> {
    const statement = PostgresConnection.translated(text);
    // A named query is parsed and planned once per connection, then only bound and executed.
    return this.client.query({ name: statement.name, text: statement.text, values: postgresValues(statement, params) });
  }

  private static translated(text: string): TranslatedStatement & { name: string } {
    let statement = PostgresConnection.translations.get(text);
    if (!statement) {
      statement = { ...toPostgres(text), name: `sd${PostgresConnection.translations.size + 1}` };
      PostgresConnection.translations.set(text, statement);
    }
    return statement;
  }
}
