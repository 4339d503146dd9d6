import { basename } from 'node:path';
import { ConfigError } from '../../src/config/app-config';
import type { BackupReport } from './database-backup';
import type { RestoreReport } from './database-restore';
import type { KeyIds } from './keys-used';
import { OperationRefused } from './operation-refused';

/* What npm run backup and npm run restore print for a person (stderr); the JSON line on stdout is the report itself. */

export function describeBackup(report: BackupReport): string[] {
  const { checkpoints: cp } = report;
  const lines = [
    `backup: ${report.file}: ${megabytes(report.bytes)}, ${report.pages.toLocaleString('en-US')} pages of ${report.pageSize} bytes in ` +
      `${report.steps} steps; copied in ${report.seconds.copy} s (${rate(report.bytes, report.seconds.copy)}), ${report.seconds.total} s in all`,
    `snapshot: taken ${report.startedAt}; ${describePoint(report.point)}`,
    `check: ${report.check} ok`,
    ...describeCheckpointsKept(cp, report.checkpointsFile),
    `sha256 (${basename(report.checksumFile)}): ${report.sha256}  ${basename(report.file)}`,
  ];
  return lines;
}

/** What a backup carries of the checkpoint file, and what it left out. */
export function describeCheckpointsKept(cp: BackupReport['checkpoints'], checkpointsFile: string): string[] {
  return [
    `checkpoints: ${cp.kept} line(s) the snapshot reaches, in ${basename(checkpointsFile)}` +
      (cp.beyond.length > 0 ? `; newer ones left out: ${cp.beyond.map((b) => `${b.tenant} entry ${b.seq} (${b.at})`).join(', ')}` : ''),
    ...cp.contradicted.map(
      (c) => `warning: the checkpoint of ${c.tenant}'s ledger at entry ${c.seq} (${c.at}) does not match the entry the database holds: the ledger was rewritten before this backup`,
    ),
    ...(cp.unreadable > 0 ? [`warning: ${cp.unreadable} line(s) of the checkpoint file are not checkpoints (left out)`] : []),
  ];
}

export function describeRestore(report: RestoreReport, held: KeyIds): string[] {
  const { checkpoints: cp } = report;
  const lines = [
    `restored: ${report.file} from ${report.from} (${megabytes(report.bytes)}, sha256 ${report.sha256.slice(0, 16)}… matches) in ${report.seconds} s` +
      (report.replaced ? '; the database that was there is replaced' : ''),
    `point: ${describePoint(report.point)}`,
    `migrations the server applies when it starts: ${report.pendingMigrations.length === 0 ? 'none' : report.pendingMigrations.join(', ')}`,
    `checkpoints: ${cp.installed} line(s) from the backup in ${cp.file}` + (cp.movedAside ? `; the file that was there is kept as ${cp.movedAside}` : ''),
    ...describeRolledBack(cp.rolledBack),
    ...describeKeys(report.keys, held, `CHAIN_KEY, CHAIN_RETIRED_KEYS_FILE, or in open mode ${basename(report.file)}.chain-key`),
    'next: start the server with the same keys, then check GET /ledger/verify (docs/backup.md)',
  ];
  return lines;
}

export function describeRolledBack(rolledBack: RestoreReport['checkpoints']['rolledBack']): string[] {
  return rolledBack.map(
    (r) => `rolled back: ${r.tenant}'s ledger was checkpointed at entry ${r.checkpointedSeq} (${r.checkpointedAt}); the backup holds it to entry ${r.restoredSeq}`,
  );
}

/** The keys the restored data was made with, each marked held or MISSING (`chainWhere`: where a chain key goes). */
export function describeKeys(used: KeyIds, held: KeyIds, chainWhere: string): string[] {
  const keyList = (ids: string[], have: string[], where: string) =>
    ids.length === 0 ? 'none' : ids.map((id) => (have.includes(id) ? `${id} (held)` : `${id} (MISSING: ${where})`)).join(', ');
  return [
    `chain keys the data was made with: ${keyList(used.chain, held.chain, chainWhere)}`,
    `private-split keys: ${keyList(used.privateSplit, held.privateSplit, 'PRIVATE_SPLIT_KEY or PRIVATE_SPLIT_RETIRED_KEYS_FILE')}`,
  ];
}

export function describePoint(point: BackupReport['point']): string {
  const migration = point.migration ? `migration ${point.migration.name}` : 'no migration applied';
  const heads = point.ledgers.length === 0 ? 'no tenants' : point.ledgers.map((l) => `${l.tenant} ${l.seq}`).join(', ');
  return `${migration}; ledger heads (entries): ${heads}`;
}

export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export function rate(bytes: number, seconds: number): string {
  return seconds > 0 ? `${(bytes / 1e6 / seconds).toFixed(0)} MB/s` : 'instant';
}

/** Shows progress on a terminal only: a log gets the summary, not a hundred progress lines. */
export function progressOnTerminal(label: string): ((done: number, total: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  let shown = -1;
  return (done, total) => {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (percent === shown) return;
    shown = percent;
    process.stderr.write(`\r${label}: ${percent}% of ${total.toLocaleString('en-US')} pages${percent === 100 ? '\n' : ''}`);
  };
}

/** The end of a tool that failed: a refusal or a bad configuration in one plain message, anything else with its stack. */
export function exitWithFailure(tool: string): (error: unknown) => never {
  return (error) => {
    const plain = error instanceof OperationRefused || error instanceof ConfigError;
    console.error(`${tool}: ${plain ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  };
}
