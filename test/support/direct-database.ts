import BetterSqlite3 from 'better-sqlite3';
import { Client } from 'pg';
import type { SqlConnection } from '../../src/database/sql-connection';
import { SqliteConnection } from '../../src/database/sqlite-connection';
import { PostgresConnection } from '../../src/database/postgres-connection';

/**
 * A test's own connection to the database an app under test uses, SQLite file or PostgreSQL server alike: to check
 * what is stored, or to change it behind the app's back as someone holding the database would. Statements are
 * written once, in the SQL both share (the app's own: `?` parameters, `epoch_ms(t)`), and read back in the same
 * shapes (counts and times as numbers). A suite run by `npm run test:postgres` gets a PostgreSQL URL from
 * freshDatabaseUrl, and with this reads it as it reads a SQLite file under `npm test`.
 */
export interface DirectDatabase extends SqlConnection {
  readonly kind: 'sqlite' | 'postgresql';
  /** Runs statements as written, unprepared and unparameterized (a schema change). */
  exec(text: string): Promise<void>;
  /** Drops one of the append-only triggers (named alike on both databases), if there, as someone tampering would first. */
  dropTrigger(name: string, table: string): Promise<void>;
  close(): Promise<void>;
}

export async function openDirect(databaseUrl: string, options: { readonly?: boolean } = {}): Promise<DirectDatabase> {
  if (databaseUrl.startsWith('file:')) {
    const db = new BetterSqlite3(databaseUrl.slice('file:'.length), { readonly: options.readonly ?? false });
    return Object.assign(new SqliteConnection(db), {
      kind: 'sqlite' as const,
      exec: async (text: string) => void db.exec(text),
      dropTrigger: async (name: string) => void db.exec(`DROP TRIGGER IF EXISTS ${name}`),
      close: async () => void db.close(),
    });
  }
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  // A read-only test connection refuses writes as SQLite's read-only handle does.
  if (options.readonly) await client.query('SET default_transaction_read_only = on');
  return Object.assign(new PostgresConnection(client), {
    kind: 'postgresql' as const,
    exec: async (text: string) => void (await client.query(text)),
    dropTrigger: async (name: string, table: string) => void (await client.query(`DROP TRIGGER IF EXISTS "${name}" ON "${table}"`)),
    close: () => client.end(),
  });
}

/** Runs `work` on a direct connection to `databaseUrl`, closed afterwards. */
export async function withDirect<T>(databaseUrl: string, work: (db: DirectDatabase) => Promise<T>, options: { readonly?: boolean } = {}): Promise<T> {
  const db = await openDirect(databaseUrl, options);
  try {
    return await work(db);
  } finally {
    await db.close();
  }
}

/** Whether this run's suites get PostgreSQL databases from freshDatabaseUrl (`npm run test:postgres`). */
export function testsRunOnPostgres(): boolean {
  return Boolean(process.env.SUPPORTDESK_TEST_POSTGRES_RUN);
}

/**
 * What a statement expected to fail said: its error's message, or "it succeeded". (A driver's error need not pass
 * jest's `rejects.toThrow`, which checks the error's class across module realms: SQLite's native errors do not.)
 */
export function refusalOf(statement: Promise<unknown>): Promise<string> {
  return statement.then(
    () => 'it succeeded',
    (error: unknown) => (error instanceof Object && 'message' in error ? String(error.message) : String(error)),
  );
}
