import type { CopyReport } from './copy-database';
import type { VerificationReport } from './target-verification';

/* What copy-to-postgres prints for a person (stderr); the JSON line on stdout is the report itself. */

export function describeCopy(report: CopyReport, keyFrom: string): string[] {
  const heads = report.point.ledgers.length === 0 ? 'no tenants' : report.point.ledgers.map((l) => `${l.tenant} ${l.seq}`).join(', ');
  const busiest = [...report.tables].sort((a, b) => b.target_rows - a.target_rows).slice(0, 4);
  return [
    `copied: ${report.from} into PostgreSQL at ${report.to}: ${report.rows.toLocaleString('en-US')} rows in ${report.tables.length} tables in ${report.seconds.copy} s ` +
      `(${busiest.map((t) => `${t.table} ${t.target_rows.toLocaleString('en-US')}`).join(', ')}, …); every table's count matches`,
    `source: migration ${report.migration}; ledger heads (entries): ${heads}`,
    `target: ${report.targetMigrationsApplied.length === 0 ? 'already migrated' : `migrated (${report.targetMigrationsApplied.join(', ')})`}; ` +
      `serial counters continue at ${report.serialCounters.map((c) => `${c.table}.${c.column} ${c.next}`).join(', ')}`,
    report.checkpoints.lines === 0
      ? `checkpoints: the source had none (${report.checkpoints.from}); the PostgreSQL server starts its file`
      : `checkpoints: ${report.checkpoints.lines} line(s) from ${report.checkpoints.from} ${report.checkpoints.alreadyThere ? 'were already' : 'written'} in ${report.checkpoints.to}`,
    `chain key: ${keyFrom === 'CHAIN_KEY' ? 'CHAIN_KEY' : `the key file ${keyFrom}`}: give the PostgreSQL server the same (${keyFrom === 'CHAIN_KEY' ? 'CHAIN_KEY or CHAIN_KEY_FILE' : `CHAIN_KEY_FILE=${keyFrom}`}), and CHAIN_RETIRED_KEYS_FILE if any`,
  ];
}

export function describeVerification(verification: VerificationReport | null): string[] {
  if (verification === null) return ['verify: left out (--skip-verify): check GET /ledger/verify and GET /episodes/{id}/verify on the PostgreSQL server'];
  const ledgersOk = verification.ledgers.filter((l) => l.ledger_ok && l.checkpoint_ok).length;
  const lines = [
    `verify: ${verification.episodes.checked.toLocaleString('en-US')} episode(s), ${verification.episodes.failed} failed (chain, replay, ledger entries); ` +
      `${ledgersOk} of ${verification.ledgers.length} tenant ledger(s) verify with their checkpoints; ${verification.seconds} s`,
    ...verification.episodes.failures.map((f) => `  episode ${f.episode_id} (tenant ${f.tenant_id}): ${f.problem}`),
    ...verification.ledgers.filter((l) => !(l.ledger_ok && l.checkpoint_ok)).map((l) => `  ledger of ${l.tenant}: ${l.problems.join('; ') || 'does not verify'}`),
  ];
  lines.push(
    verification.ok
      ? 'next: point the server at PostgreSQL (DATABASE_URL, CHAIN_KEY, LEDGER_CHECKPOINT_FILE as above) and start it (docs/copy-to-postgresql.md)'
      : 'the copy does NOT verify: do not serve it; the same episodes may fail on the SQLite server too (GET /episodes/{id}/verify there); see docs/copy-to-postgresql.md',
  );
  return lines;
}
