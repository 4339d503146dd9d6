import { basename } from 'node:path';
import type { KeyIds } from './keys-used';
import { describeCheckpointsKept, describeKeys, describePoint, describeRolledBack, megabytes, rate } from './ops-output';
import type { PostgresBackupReport } from './postgres-backup';
import type { PostgresRestoreReport } from './postgres-restore';

/* The summaries of ops-output.ts for a database on PostgreSQL: the same lines, with a dump where SQLite has pages. */

export function describePostgresBackup(report: PostgresBackupReport): string[] {
  return [
    `backup: ${report.file}: ${megabytes(report.bytes)} (pg_dump custom format, compressed) of ${report.database}; ` +
      `dumped in ${report.seconds.dump} s (${rate(report.bytes, report.seconds.dump)} written), ${report.seconds.total} s in all`,
    `snapshot: taken ${report.startedAt}; ${describePoint(report.point)}`,
    `check: pg_restore read it back whole: ${report.archive.entries} entries, ${report.archive.tablesWithData} tables' data (${report.seconds.check} s)`,
    ...describeCheckpointsKept(report.checkpoints, report.checkpointsFile),
    `sha256 (${basename(report.checksumFile)}): ${report.sha256}  ${basename(report.file)}`,
  ];
}

export function describePostgresRestore(report: PostgresRestoreReport, held: KeyIds): string[] {
  const { checkpoints: cp } = report;
  return [
    `restored: ${report.database} from ${report.from} (${megabytes(report.bytes)}, sha256 ${report.sha256.slice(0, 16)}… matches) in ${report.seconds} s, ` +
      `in one transaction${report.replaced ? '; the tables that were there are replaced' : ''}`,
    `point: ${describePoint(report.point)}`,
    `migrations the server applies when it starts: ${report.pendingMigrations.length === 0 ? 'none' : report.pendingMigrations.join(', ')}`,
    `checkpoints: ${cp.installed} line(s) from the backup in ${cp.file}` + (cp.movedAside ? `; the file that was there is kept as ${cp.movedAside}` : ''),
    ...describeRolledBack(cp.rolledBack),
    ...describeKeys(report.keys, held, 'CHAIN_KEY or CHAIN_RETIRED_KEYS_FILE'),
    'next: start the server with the same keys, then check GET /ledger/verify (docs/backup.md)',
  ];
}
