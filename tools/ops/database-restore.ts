import { createHash } from 'node:crypto';
import { chmodSync, constants, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { pendingMigrations } from '../../src/database/migrate';
import { readChecksumFile, sha256OfFile } from './checksums';
import { backupFiles } from './database-backup';
import { databaseInUse } from './database-in-use';
import { readDatabasePoint, type DatabasePoint } from './database-point';
import { moveIntoPlace, removeSqliteFile, sqliteFileSet, temporaryBeside, writeFileAtomically } from './durable-files';
import { newestCheckpoints } from './checkpoint-selection';
import { keysUsedBy, type KeyIds } from './keys-used';
import { OperationRefused } from './operation-refused';

export interface RestoreOptions {
  /** The backup: the database copy, with `<from>.sha256` and `<from>.ledger-checkpoints` beside it. */
  from: string;
  /** The database file to restore into (the server's DATABASE_URL path). */
  to: string;
  /** The ledger checkpoint file the server started on `to` will use (LEDGER_CHECKPOINT_FILE, or beside `to`). */
  checkpointFile: string;
  /** Replace an existing database (never one a process has open). */
  force?: boolean;
}

export interface RestoreReport {
  file: string;
  from: string;
  bytes: number;
  sha256: string;
  seconds: number;
  /** An existing database was replaced (--force). */
  replaced: boolean;
  point: DatabasePoint;
  /** Migrations the server will apply when it starts on the restored file (it migrates at start). */
  pendingMigrations: string[];
  checkpoints: {
    file: string;
    /** Checkpoint lines put in place: the backup's, the ones its ledgers reach. */
    installed: number;
    /** Where the checkpoint file that was there before went (kept: it records how far the ledgers had got). */
    movedAside: string | null;
    /** Per tenant whose ledger the old checkpoint file saw further than the backup holds: what the restore rolls back. */
    rolledBack: { tenant: string; restoredSeq: number; checkpointedSeq: number; checkpointedAt: string }[];
  };
  /** The ids of the keys the restored data was made with: the server needs them (keys-used.ts). */
  keys: KeyIds;
}

/**
 * Puts a backup in place of a stopped server's database: checks the backup against its checksum file, copies it
 * beside the target under a temporary name and checks the copy's sum again, then moves the checkpoint file aside
 * and installs the backup's checkpoint lines, removes the target's stale WAL, shared-memory and journal files, and
 * renames the copy over the target. Nothing is changed until the copy has been checked.
 *
 * The checkpoint file goes first: should the last rename fail, the old database is left with checkpoints older
 * than its ledgers, which still verifies; the other order would leave a restored database with checkpoints it
 * cannot reach.
 */
export async function restoreDatabase(options: RestoreOptions): Promise<RestoreReport> {
  const started = performance.now();
  const backup = backupFiles(options.from);
  const target = resolve(options.to);
  const checkpointFile = resolve(options.checkpointFile);
  const expected = expectedSums(backup);
  if (target === backup.database) throw new OperationRefused('the backup cannot be restored over itself');
  const replaced = existsSync(target);
  if (replaced && !options.force) throw new OperationRefused(`${target} exists; stop the server and give --force to replace it`);
  if (replaced && databaseInUse(target)) {
    throw new OperationRefused(`${target} is open in another process (a running server?): stop it before restoring over its database`);
  }
  const checkpointText = checkedCheckpointText(backup, expected);

  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  const partial = temporaryBeside(target, 'restoring');
  try {
    copyFileSync(backup.database, partial, constants.COPYFILE_EXCL);
    chmodSync(partial, 0o600);
    // The copy is what is checked: it is what will be served.
    const sum = await sha256OfFile(partial);
    if (sum !== expected.database) {
      throw new OperationRefused(`${backup.database} does not match its checksum in ${backup.checksumFile}: it is damaged or was changed`);
    }
    const { point, keys } = inspect(partial);
    const pending = pendingMigrations(`file:${partial}`);

    const checkpoints = replaceCheckpointFile(checkpointFile, checkpointText, point);
    for (const stale of sqliteFileSet(target).slice(1)) rmSync(stale, { force: true });
    moveIntoPlace(partial, target);
    return {
      file: target,
      from: backup.database,
      bytes: statSync(target).size,
      sha256: sum,
      seconds: Math.round(performance.now() - started) / 1000,
      replaced,
      point,
      pendingMigrations: pending,
      checkpoints,
      keys,
    };
  } finally {
    removeSqliteFile(partial);
  }
}

/** The sums the backup's checksum file gives its database and its checkpoint lines (null: none listed). */
export function expectedSums(backup: ReturnType<typeof backupFiles>): { database: string; checkpoints: string | null } {
  if (!existsSync(backup.database)) throw new OperationRefused(`no backup at ${backup.database}`);
  let sums: Map<string, string>;
  try {
    sums = readChecksumFile(backup.checksumFile);
  } catch (error) {
    throw new OperationRefused(`${(error as Error).message}: a backup is restored only with the checksum file written beside it`);
  }
  const database = sums.get(basename(backup.database));
  if (!database) {
    throw new OperationRefused(`${backup.checksumFile} has no line for ${basename(backup.database)} (was the backup renamed? rename it back, or its checksum file with it and the names inside)`);
  }
  const checkpoints = sums.get(basename(backup.checkpointsFile)) ?? null;
  if (checkpoints !== null && !existsSync(backup.checkpointsFile)) throw new OperationRefused(`${backup.checkpointsFile} is missing; the checksum file lists it`);
  return { database, checkpoints };
}

function inspect(file: string): { point: DatabasePoint; keys: KeyIds } {
  const db = new BetterSqlite3(file, { fileMustExist: true });
  try {
    return { point: readDatabasePoint(db), keys: keysUsedBy(db) };
  } finally {
    db.close();
  }
}

/**
 * Moves the checkpoint file aside and puts the backup's lines in its place. The old file stays as evidence: its
 * checkpoints past the restored heads record ledger entries the restore rolled back, which no server would reach
 * again (its new entries reuse those sequence numbers under other MACs).
 */
function replaceCheckpointFile(file: string, text: string, point: DatabasePoint): RestoreReport['checkpoints'] {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let movedAside: string | null = null;
  let rolledBack: RestoreReport['checkpoints']['rolledBack'] = [];
  if (existsSync(file)) {
    rolledBack = rolledBackBy(readFileSync(file, 'utf8'), point);
    movedAside = `${file}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(file, movedAside);
  }
  writeFileAtomically(file, text);
  return { file, installed: text.split('\n').filter(Boolean).length, movedAside, rolledBack };
}

/** Per tenant whose ledger a checkpoint file saw further than the restored heads: the entries a restore gives up. */
export function rolledBackBy(checkpointText: string, point: DatabasePoint): RestoreReport['checkpoints']['rolledBack'] {
  const rolledBack: RestoreReport['checkpoints']['rolledBack'] = [];
  const ledgers = new Map(point.ledgers.map((l) => [l.tenantId, l]));
  for (const [tenantId, checkpoint] of newestCheckpoints(checkpointText)) {
    // A tenant the backup does not have was created after it: named by its id, the slug went with it.
    const ledger = ledgers.get(tenantId) ?? { tenant: tenantId, seq: 0 };
    if (checkpoint.seq > ledger.seq) {
      rolledBack.push({ tenant: ledger.tenant, restoredSeq: ledger.seq, checkpointedSeq: checkpoint.seq, checkpointedAt: checkpoint.at });
    }
  }
  return rolledBack;
}

/** The backup's checkpoint lines ("" when it has none), refused unless they match their sum in the checksum file. */
export function checkedCheckpointText(backup: ReturnType<typeof backupFiles>, expected: ReturnType<typeof expectedSums>): string {
  if (expected.checkpoints === null) return '';
  const text = readFileSync(backup.checkpointsFile, 'utf8');
  if (sha256OfText(text) !== expected.checkpoints) {
    throw new OperationRefused(`${backup.checkpointsFile} does not match its checksum in ${backup.checksumFile}: it is damaged or was changed`);
  }
  return text;
}

export function sha256OfText(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
