import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Client } from 'pg';
import { PostgresConnection } from '../../src/database/postgres-connection';
import { serverOf } from '../../src/database/postgres-migrate';
import { sha256OfFile } from './checksums';
import { backupFiles } from './database-backup';
import type { DatabasePoint } from './database-point';
import { checkedCheckpointText, expectedSums, rolledBackBy, type RestoreReport } from './database-restore';
import { writeFileAtomically } from './durable-files';
import type { KeyIds } from './keys-used';
import { OperationRefused } from './operation-refused';
import { unreadableDumpReason } from './postgres-dump-archive';
import { describeSessions, otherSessions } from './postgres-in-use';
import { loadDump } from './postgres-load-dump';
import { postgresKeysUsed, postgresPendingMigrations, readPostgresPoint } from './postgres-point';

export interface PostgresRestoreOptions {
  /** The backup: the pg_dump archive, with `<from>.sha256` and `<from>.ledger-checkpoints` beside it. */
  from: string;
  /** The database to restore into: the server's DATABASE_URL (postgresql://…). */
  databaseUrl: string;
  /** The ledger checkpoint file of the server on that database (LEDGER_CHECKPOINT_FILE). */
  checkpointFile: string;
  /** Replace a database that holds tables (never one another client is connected to). */
  force?: boolean;
}

export interface PostgresRestoreReport {
  kind: 'postgresql';
  /** host:port/database (never the password). */
  database: string;
  from: string;
  bytes: number;
  sha256: string;
  seconds: number;
  /** The database held tables, replaced (--force). */
  replaced: boolean;
  point: DatabasePoint;
  /** Migrations the server will apply when it starts on the restored database (it migrates at start). */
  pendingMigrations: string[];
  checkpoints: RestoreReport['checkpoints'];
  /** The ids of the keys the restored data was made with: the server needs them (keys-used.ts). */
  keys: KeyIds;
}

/**
 * Puts a backup made by backupPostgres in place of a stopped server's database: checks the dump and the checkpoint
 * lines against the checksum file, refuses while another client is connected, then moves the checkpoint file aside
 * and installs the backup's lines, and loads the dump in one transaction (postgres-load-dump.ts). Should the load
 * fail, it changed nothing, and the checkpoint file is put back as it was. Then reads what was restored, as the
 * SQLite restore does (database-restore.ts): where it stands, the migrations still to apply, the keys it needs.
 */
export async function restorePostgres(options: PostgresRestoreOptions): Promise<PostgresRestoreReport> {
  const started = performance.now();
  const backup = backupFiles(options.from);
  const checkpointFile = resolve(options.checkpointFile);
  const database = serverOf(options.databaseUrl);
  const expected = expectedSums(backup);
  const checkpointText = checkedCheckpointText(backup, expected);
  const sum = await sha256OfFile(backup.database);
  if (sum !== expected.database) {
    throw new OperationRefused(`${backup.database} does not match its checksum in ${backup.checksumFile}: it is damaged or was changed`);
  }
  const unreadable = await unreadableDumpReason(backup.database);
  if (unreadable !== null) {
    throw new OperationRefused(
      `${backup.database} cannot be read as a pg_dump archive (${unreadable}); nothing was changed. A backup of a SQLite database restores onto a SQLite DATABASE_URL (docs/backup.md)`,
    );
  }

  const replaced = await withDatabase(options.databaseUrl, async (sql) => {
    const sessions = await otherSessions(sql);
    if (sessions.length > 0) {
      throw new OperationRefused(`${database} is in use: ${describeSessions(sessions)}; stop the server (every process) before restoring over its database`);
    }
    const tables = (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p')`))!.n;
    if (tables > 0 && !options.force) throw new OperationRefused(`${database} holds ${tables} table(s); stop the server and give --force to replace them`);
    return tables > 0;
  });

  // The checkpoint file goes first, as on SQLite; here a failed load puts it back, since it changed nothing else.
  const swap = swapCheckpointFile(checkpointFile, checkpointText);
  try {
    await loadDump(options.databaseUrl, backup.database);
  } catch (error) {
    swap.undo();
    throw error;
  }
  const restored = await withDatabase(options.databaseUrl, async (sql) => ({
    point: await readPostgresPoint(sql),
    keys: await postgresKeysUsed(sql),
    pendingMigrations: await postgresPendingMigrations(sql),
  }));
  return {
    kind: 'postgresql',
    database,
    from: backup.database,
    bytes: statSync(backup.database).size,
    sha256: sum,
    seconds: Math.round(performance.now() - started) / 1000,
    replaced,
    point: restored.point,
    pendingMigrations: restored.pendingMigrations,
    checkpoints: {
      file: checkpointFile,
      installed: checkpointText.split('\n').filter(Boolean).length,
      movedAside: swap.movedAside,
      rolledBack: swap.previousText === null ? [] : rolledBackBy(swap.previousText, restored.point),
    },
    keys: restored.keys,
  };
}

async function withDatabase<T>(url: string, work: (sql: PostgresConnection) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, application_name: 'supportdesk-restore' });
  await client.connect();
  try {
    return await work(new PostgresConnection(client));
  } finally {
    await client.end();
  }
}

/**
 * Moves the checkpoint file aside (kept: it records how far the ledgers had got) and writes the backup's lines in
 * its place, as database-restore.ts does; `undo` puts the old file back.
 */
function swapCheckpointFile(file: string, text: string) {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const previousText = existsSync(file) ? readFileSync(file, 'utf8') : null;
  const movedAside = previousText === null ? null : `${file}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  if (movedAside) renameSync(file, movedAside);
  writeFileAtomically(file, text);
  return {
    previousText,
    movedAside,
    undo: () => (movedAside ? renameSync(movedAside, file) : rmSync(file, { force: true })),
  };
}
