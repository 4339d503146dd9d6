import type { SqlConnection } from '../../database/group-commit';
import { sqliteTimestamp } from '../../database/sqlite-timestamp';
import type { ChainKey } from '../hash-chain';
import { canonicalBody, LEDGER_GENESIS, ledgerMac, type LedgerEntry, type LedgerEntryDraft } from './ledger-entry';

/*
 * The ledger's statements on the direct connection, inside the write that the entry records (the same group-commit
 * batch), snapshotted in queries/ledger-statements.sql. The head is read from the table in that transaction, not
 * kept in memory, so two processes writing one file extend one sequence (the batch holds SQLite's write lock).
 */
export const LEDGER_STATEMENTS = {
  selectLedgerHead: `SELECT seq, mac FROM ledger_entries WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1`,
  insertLedgerEntry: `INSERT INTO ledger_entries (tenant_id, seq, kind, episode_id, step_index, body, key_id, mac, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
} as const;

/** Appends one entry to the tenant's ledger, chained to its current head; returns the stored entry. */
export function appendLedgerEntry(sql: SqlConnection, key: ChainKey, tenantId: string, draft: LedgerEntryDraft): LedgerEntry {
  const head = sql.statement(LEDGER_STATEMENTS.selectLedgerHead).get(tenantId) as { seq: number; mac: string } | undefined;
  const unsigned = {
    tenantId,
    seq: (head?.seq ?? 0) + 1,
    kind: draft.kind,
    episodeId: draft.episodeId,
    stepIndex: draft.stepIndex,
    body: canonicalBody(draft),
    createdAt: draft.createdAt,
  };
  const entry: LedgerEntry = { ...unsigned, keyId: key.id, mac: ledgerMac(key, head?.mac ?? LEDGER_GENESIS, unsigned) };
  sql
    .statement(LEDGER_STATEMENTS.insertLedgerEntry)
    .run(entry.tenantId, entry.seq, entry.kind, entry.episodeId, entry.stepIndex, entry.body, entry.keyId, entry.mac, sqliteTimestamp(entry.createdAt));
  return entry;
}
