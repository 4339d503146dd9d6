import { Client, type ClientBase } from 'pg';
import { MigrationError } from '../../../src/database/migration-error';
import { migratePostgres, migrationFiles, pendingOf, serverOf } from '../../../src/database/postgres-migrate';
import { OperationRefused } from '../operation-refused';
import { quoted } from './quoted-name';
import { HISTORY_TABLE, tablesOf } from './target-schema';

/**
 * Readies the target before anything is copied, refusing what the copy must not land in: a database of something
 * else (tables, but no migration history), a history this release's runner refuses (another or a newer release's, a
 * changed file, a half-failed migration), and data (a row in any table: two histories cannot be merged, and a
 * server started on it once has made its own public tenant). Then migrates it with the server's own runner, as a
 * PostgreSQL server's start would. Returns the migrations it applied. Nothing is changed before every check passed.
 */
export async function readyTarget(url: string): Promise<string[]> {
  const where = serverOf(url);
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    throw new OperationRefused(`cannot connect to the target PostgreSQL at ${where}: ${(error as Error).message}`);
  }
  try {
    const tables = await tablesOf(client);
    if (tables.length > 0 && !tables.includes(HISTORY_TABLE)) {
      throw new OperationRefused(`the target ${where} holds tables (${tables.slice(0, 5).join(', ')}…) but no migration history: it is not a SupportDesk database; nothing was changed`);
    }
    if (tables.includes(HISTORY_TABLE)) {
      const applied = await client.query(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM ${quoted(HISTORY_TABLE)}`);
      try {
        pendingOf(migrationFiles(), applied.rows);
      } catch (error) {
        if (error instanceof MigrationError) throw new OperationRefused(`the target ${where}: ${error.message}; nothing was changed`);
        throw error;
      }
    }
    await refuseData(client, tables, where);
  } finally {
    await client.end();
  }
  try {
    return await migratePostgres({ connectionString: url });
  } catch (error) {
    if (error instanceof MigrationError) throw new OperationRefused(`the target ${where}: ${error.message}`);
    throw error;
  }
}

/** Refuses a target whose tables (the history aside) hold a row; checked again inside the copy's transaction. */
export async function refuseData(client: ClientBase, tables: string[], where: string): Promise<void> {
  const holding: string[] = [];
  for (const table of tables.filter((name) => name !== HISTORY_TABLE)) {
    const result = await client.query<{ held: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${quoted(table)}) AS held`);
    if (result.rows[0].held) holding.push(table);
  }
  if (holding.length > 0) {
    throw new OperationRefused(
      `the target ${where} already holds data (in ${holding.join(', ')}): the copy goes into an empty database only; create a new one ` +
        '(CREATE DATABASE …) or drop this one if it is a scratch copy; nothing was changed',
    );
  }
}
