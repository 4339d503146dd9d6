import { chmodSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DEFAULT_STEP_PAGES } from './backup-defaults';
import { selectCheckpoints, type CheckpointSelection } from './checkpoint-selection';
import { checksumFileOf, checksumLine, sha256OfFile } from './checksums';
import { readDatabasePoint, type DatabasePoint } from './database-point';
import { moveIntoPlace, removeSqliteFile, temporaryBeside, writeFileAtomically } from './durable-files';
import { OperationRefused } from './operation-refused';

export interface BackupOptions {
  /** The server's database file (its DATABASE_URL's path). */
  database: string;
  /** The server's ledger checkpoint file (LEDGER_CHECKPOINT_FILE, or beside the database). */
  checkpointFile: string;
  /** Where the backup goes; `<to>.sha256` and `<to>.ledger-checkpoints` are written beside it. */
  to: string;
  /** Replace an existing backup of that name. */
  force?: boolean;
  /** Pages copied per step of the backup API; the event loop (a server in the same process) runs between steps. */
  stepPages?: number;
  /** `integrity_check` on the copy instead of the faster `quick_check` (which skips checking indexes against tables). */
  fullCheck?: boolean;
  /** How long to wait for a lock held by the server (its SQLITE_BUSY_TIMEOUT_MS); SQLite's own retries. */
  busyTimeoutMs?: number;
  /** Called after each step. */
  onProgress?: (copiedPages: number, totalPages: number) => void;
}

export interface BackupReport {
  file: string;
  checksumFile: string;
  checkpointsFile: string;
  bytes: number;
  pages: number;
  pageSize: number;
  steps: number;
  /** When the snapshot was taken: every transaction committed before it is in the backup, none after. */
  startedAt: string;
  seconds: { total: number; copy: number; check: number; checksum: number };
  sha256: string;
  check: 'quick_check' | 'integrity_check';
  point: DatabasePoint;
  checkpoints: { kept: number } & Omit<CheckpointSelection, 'kept'>;
}

/**
 * Copies the database while the server serves it, through SQLite's online backup API, a few pages a step.
 *
 * The copy is one snapshot: a read transaction is opened on the source first and held until the last page, so the
 * backup holds exactly the transactions committed before it began. (Without it, SQLite restarts the backup from the
 * first page whenever another connection writes between two steps, which under steady load means it never ends.)
 * In WAL mode the read transaction does not block the server's writes; the WAL cannot be checkpointed past it, so
 * it grows for the backup's duration and is checkpointed afterwards.
 *
 * The copy is written under a temporary name beside the target, checked, summed, and renamed into place last; the
 * checkpoint lines its ledgers reach go beside it (checkpoint-selection.ts).
 */
export async function backupDatabase(options: BackupOptions): Promise<BackupReport> {
  const database = resolve(options.database);
  const { database: target, checksumFile, checkpointsFile } = backupFiles(options.to);
  if (target === database) throw new OperationRefused(`the backup cannot be written over the database itself (${database})`);
  if (!existsSync(database)) throw new OperationRefused(`no database at ${database} (DATABASE_URL)`);
  if (existsSync(target) && !options.force) throw new OperationRefused(`${target} exists; give --force to replace it`);
  if (existsSync(target) && statSync(target).isDirectory()) throw new OperationRefused(`${target} is a folder; name the backup file`);
  // A backup holds every tenant's episodes and the keys' hashes: its folder is this user's only, like the data folder.
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });

  const started = performance.now();
  const partial = temporaryBeside(target, 'partial');
  try {
    const copy = await copySnapshot(database, partial, options);
    const checked = performance.now();
    const inspected = inspectCopy(partial, options.checkpointFile, options.fullCheck ?? false);
    const summed = performance.now();
    chmodSync(partial, 0o600);
    const sha256 = await sha256OfFile(partial);
    const checkpointsText = inspected.checkpoints.kept.map((line) => `${line}\n`).join('');
    writeFileAtomically(checkpointsFile, checkpointsText);
    const checkpointsSha256 = await sha256OfFile(checkpointsFile);
    // The checksum file before the backup: a backup under its final name always has one.
    writeFileAtomically(checksumFile, `${checksumLine(sha256, target)}\n${checksumLine(checkpointsSha256, checkpointsFile)}\n`);
    moveIntoPlace(partial, target);
    const done = performance.now();
    return {
      file: target,
      checksumFile,
      checkpointsFile,
      bytes: statSync(target).size,
      pages: copy.pages,
      pageSize: inspected.pageSize,
      steps: copy.steps,
      startedAt: copy.startedAt,
      seconds: { total: seconds(done - started), copy: seconds(checked - copy.startedMs), check: seconds(summed - checked), checksum: seconds(done - summed) },
      sha256,
      check: options.fullCheck ? 'integrity_check' : 'quick_check',
      point: inspected.point,
      checkpoints: { ...inspected.checkpoints, kept: inspected.checkpoints.kept.length },
    };
  } finally {
    removeSqliteFile(partial);
  }
}

async function copySnapshot(database: string, partial: string, options: BackupOptions) {
  const source = new BetterSqlite3(database, { readonly: true, fileMustExist: true, timeout: options.busyTimeoutMs ?? 5_000 });
  try {
    // The snapshot: the first read of a transaction fixes what it sees; backup_step runs inside it while it is open.
    source.exec('BEGIN');
    source.prepare('SELECT COUNT(*) FROM sqlite_master').get();
    const startedMs = performance.now();
    const startedAt = new Date().toISOString();
    const stepPages = Math.max(1, Math.floor(options.stepPages ?? DEFAULT_STEP_PAGES));
    let steps = 0;
    const result = await source.backup(partial, {
      progress: ({ totalPages, remainingPages }) => {
        steps++;
        options.onProgress?.(totalPages - remainingPages, totalPages);
        return stepPages;
      },
    });
    source.exec('COMMIT');
    return { pages: result.totalPages, steps: steps + 1, startedAt, startedMs };
  } finally {
    source.close();
  }
}

/**
 * Opens the copy alone (its WAL and shared-memory files are removed again when it closes): checks it, reads its
 * point and sorts the checkpoint file against it. The copy's ledgers are the snapshot's, by construction.
 */
function inspectCopy(partial: string, checkpointFile: string, fullCheck: boolean) {
  const copy = new BetterSqlite3(partial, { fileMustExist: true });
  try {
    const check = copy.pragma(fullCheck ? 'integrity_check' : 'quick_check') as Record<string, string>[];
    const problems = check.map((row) => Object.values(row)[0]).filter((line) => line !== 'ok');
    if (problems.length > 0) throw new Error(`the copy fails ${fullCheck ? 'integrity_check' : 'quick_check'}: ${problems.slice(0, 5).join('; ')}`);
    const point = readDatabasePoint(copy);
    const text = existsSync(checkpointFile) ? readFileSync(checkpointFile, 'utf8') : '';
    return { point, checkpoints: selectCheckpoints(copy, point, text), pageSize: copy.pragma('page_size', { simple: true }) as number };
  } finally {
    copy.close();
  }
}

function seconds(ms: number): number {
  return Math.round(ms) / 1000;
}

/** The files a backup consists of: the database copy, its checksum file, and the checkpoint lines it reaches. */
export function backupFiles(to: string): { database: string; checksumFile: string; checkpointsFile: string } {
  const database = resolve(to);
  return { database, checksumFile: checksumFileOf(database), checkpointsFile: `${database}.ledger-checkpoints` };
}
