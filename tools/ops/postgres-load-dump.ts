import { serverOf } from '../../src/database/postgres-migrate';
import { OperationRefused } from './operation-refused';
import { connectionFor, startTool, toolFailed, type ToolResult } from './postgres-client-tools';
import { EMPTY_PUBLIC_SCHEMA } from './postgres-empty-schema';
import { REFUSE_IF_IN_USE } from './postgres-in-use';

/**
 * Replaces the database's contents with a dump's, in one transaction: pg_restore turns the archive into SQL, psql
 * runs it after this prelude, and COMMIT is sent only once pg_restore has finished without an error. Either the
 * whole backup is in the database or nothing changed: psql stops at the first error (ON_ERROR_STOP) and its
 * connection ends with the transaction open, which PostgreSQL rolls back; a pg_restore that fails part-way (the
 * stream cut short) gets psql killed before any COMMIT. This is `pg_restore --single-transaction --exit-on-error`
 * with the emptying of the schema inside the same transaction, which pg_restore alone cannot do.
 *
 * The append-only triggers do not get in the way: a dump creates triggers after it has loaded the tables' data
 * (they are in its post-data section), and DROP TABLE fires no row trigger.
 */
export async function loadDump(databaseUrl: string, dump: string): Promise<void> {
  const { dbname, env } = connectionFor(databaseUrl, 'supportdesk-restore');
  // The archive's owners are the source server's roles: the restoring role (the server's) owns what it restores.
  const restore = startTool('pg_restore', ['--file=-', '--no-owner', dump], process.env);
  const psql = startTool('psql', ['--no-psqlrc', '--quiet', '--no-password', '--set=ON_ERROR_STOP=1', `--dbname=${dbname}`, '--file=-'], env);
  restore.child.stdin!.end();
  psql.child.stdout!.resume();
  // EPIPE once psql stopped at an error: its exit status and message say what happened.
  psql.child.stdin!.on('error', () => undefined);
  psql.child.stdin!.write(PRELUDE);
  restore.child.stdout!.pipe(psql.child.stdin!, { end: false });

  // Whichever ends first decides: psql stopping ends pg_restore's reason to go on, and the reverse.
  const [restored, loaded] = await Promise.all([
    restore.finished.then((result) => {
      if (result.code === 0) psql.child.stdin!.end('COMMIT;\n');
      else psql.child.kill('SIGKILL');
      return result;
    }),
    psql.finished.then((result) => {
      if (result.code !== 0) restore.child.kill();
      return result;
    }),
  ]);
  if (restored.code !== 0 && loaded.code !== 0 && restored.signal !== null) {
    // pg_restore was stopped because psql had failed: psql's message is the one that explains.
    throw loadFailed(loaded, databaseUrl);
  }
  if (restored.code !== 0) throw toolFailed('pg_restore', `reading ${dump} (nothing was changed)`, restored);
  if (loaded.code !== 0) throw loadFailed(loaded, databaseUrl);
}

/** The transaction's first statements: the in-use check again, and the emptying of the schema. */
const PRELUDE = [
  // pg_restore's own script sets these too, but only after the prelude has run.
  'SET client_min_messages = warning;',
  'SET statement_timeout = 0;',
  'SET idle_in_transaction_session_timeout = 0;',
  // A session that took a lock after the check would otherwise hold the restore up for as long as it lives.
  "SET lock_timeout = '30s';",
  'BEGIN;',
  REFUSE_IF_IN_USE,
  EMPTY_PUBLIC_SCHEMA,
  '',
].join('\n');

function loadFailed(result: ToolResult, databaseUrl: string): Error {
  if (/another client connected to the database/.test(result.stderr)) {
    return new OperationRefused(`a client connected to ${serverOf(databaseUrl)} as the restore began (a server starting?); nothing was changed: stop it and restore again`);
  }
  return toolFailed('psql', `loading the backup into ${serverOf(databaseUrl)} (rolled back: nothing was changed)`, result);
}
