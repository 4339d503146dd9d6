import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { Client } from 'pg';
import { PostgresConnection } from '../../src/database/postgres-connection';
import { serverOf } from '../../src/database/postgres-migrate';
import type { CheckpointSelection } from './checkpoint-selection';
import { checksumLine, sha256OfFile } from './checksums';
import { backupFiles } from './database-backup';
import type { DatabasePoint } from './database-point';
import { moveIntoPlace, temporaryBeside, writeFileAtomically } from './durable-files';
import { OperationRefused } from './operation-refused';
import { checkDumpArchive, type DumpArchive } from './postgres-dump-archive';
import { connectionFor, runTool, toolFailed } from './postgres-client-tools';
import { selectPostgresCheckpoints } from './postgres-checkpoint-selection';
import { readPostgresPoint } from './postgres-point';

export interface PostgresBackupOptions {
  /** The server's DATABASE_URL (postgresql://…). */
  databaseUrl: string;
  /** The server's ledger checkpoint file (LEDGER_CHECKPOINT_FILE, by default data/postgresql.ledger-checkpoints). */
  checkpointFile: string;
  /** Where the dump goes; `<to>.sha256` and `<to>.ledger-checkpoints` are written beside it. */
  to: string;
  /** Replace an existing backup of that name. */
  force?: boolean;
}

export interface PostgresBackupReport {
  kind: 'postgresql';
  /** host:port/database (never the password). */
  database: string;
  file: string;
  checksumFile: string;
  checkpointsFile: string;
  bytes: number;
  /** When the snapshot was taken (the server's clock): every transaction committed before it is in the backup, none after. */
  startedAt: string;
  seconds: { total: number; dump: number; check: number; checksum: number };
  sha256: string;
  check: 'pg_restore';
  archive: DumpArchive;
  point: DatabasePoint;
  checkpoints: { kept: number } & Omit<CheckpointSelection, 'kept'>;
}

/**
 * Dumps the server's database while it serves: one snapshot, the same for the summary, the checkpoint lines and the
 * dump. A transaction (REPEATABLE READ, READ ONLY) exports its snapshot, reads in it where the database stands and
 * which checkpoint lines its ledgers reach, and stays open while pg_dump reads the same snapshot (--snapshot), so
 * the three agree to the transaction. The dump goes to a temporary name beside the target, is read back whole
 * (postgres-dump-archive.ts), summed, and renamed into place last, as on SQLite (database-backup.ts).
 */
export async function backupPostgres(options: PostgresBackupOptions): Promise<PostgresBackupReport> {
  const { database: target, checksumFile, checkpointsFile } = backupFiles(options.to);
  if (existsSync(target) && !options.force) throw new OperationRefused(`${target} exists; give --force to replace it`);
  if (existsSync(target) && statSync(target).isDirectory()) throw new OperationRefused(`${target} is a folder; name the backup file`);
  // A backup holds every tenant's episodes and the keys' hashes: its folder is this user's only, like the data folder.
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });

  const started = performance.now();
  const partial = temporaryBeside(target, 'partial');
  const client = new Client({ connectionString: options.databaseUrl, application_name: 'supportdesk-backup' });
  await client.connect();
  try {
    // A role's own timeouts must not end the snapshot half-way: pg_dump needs it open until it has read every table.
    await client.query('SET statement_timeout = 0; SET idle_in_transaction_session_timeout = 0');
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    // The transaction's first statement fixes its snapshot: everything committed before it, nothing after.
    const snapshot = (await client.query<{ id: string; at: Date | number }>('SELECT pg_export_snapshot() AS id, statement_timestamp() AS at')).rows[0];
    const sql = new PostgresConnection(client);
    const point = await readPostgresPoint(sql);
    const checkpointText = existsSync(options.checkpointFile) ? readFileSync(options.checkpointFile, 'utf8') : '';
    const checkpoints = await selectPostgresCheckpoints(sql, point, checkpointText);

    const dumpStarted = performance.now();
    const { dbname, env } = connectionFor(options.databaseUrl, 'supportdesk-backup');
    const dump = await runTool('pg_dump', ['--format=custom', `--snapshot=${snapshot.id}`, '--no-password', `--file=${partial}`, `--dbname=${dbname}`], env);
    if (dump.code !== 0) throw toolFailed('pg_dump', `dumping ${serverOf(options.databaseUrl)}`, dump);
    await client.query('COMMIT');
    const dumped = performance.now();

    const archive = await checkDumpArchive(partial);
    const checked = performance.now();
    chmodSync(partial, 0o600);
    const sha256 = await sha256OfFile(partial);
    writeFileAtomically(checkpointsFile, checkpoints.kept.map((line) => `${line}\n`).join(''));
    const checkpointsSha256 = await sha256OfFile(checkpointsFile);
    // The checksum file before the backup: a backup under its final name always has one.
    writeFileAtomically(checksumFile, `${checksumLine(sha256, target)}\n${checksumLine(checkpointsSha256, checkpointsFile)}\n`);
    moveIntoPlace(partial, target);
    const done = performance.now();
    return {
      kind: 'postgresql',
      database: serverOf(options.databaseUrl),
      file: target,
      checksumFile,
      checkpointsFile,
      bytes: statSync(target).size,
      startedAt: new Date(snapshot.at).toISOString(),
      seconds: { total: seconds(done - started), dump: seconds(dumped - dumpStarted), check: seconds(checked - dumped), checksum: seconds(done - checked) },
      sha256,
      check: 'pg_restore',
      archive,
      point,
      checkpoints: { ...checkpoints, kept: checkpoints.kept.length },
    };
  } finally {
    // Ends the snapshot's transaction if pg_dump failed (a rollback of a read-only transaction).
    await client.end().catch(() => undefined);
    rmSync(partial, { force: true });
  }
}

function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}
