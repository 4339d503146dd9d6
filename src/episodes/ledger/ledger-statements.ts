import type { SqlConnection } from '../../database/sql-connection';
import type { ChainKey } from '../hash-chain';
import { canonicalBody, LEDGER_GENESIS, ledgerMac, type LedgerEntry, type LedgerEntryDraft } from './ledger-entry';
import { selectLedgerHead } from './ledger-rows';

/*
 * The ledger's statements on the direct connection, inside the write that the entry records (the same group-commit
 * batch), snapshotted in queries/ledger-statements.sql. The head is read from the tables in that transaction, not
 * kept in memory, so two processes writing one file extend one sequence (the batch holds SQLite's write lock).
 */
export const LEDGER_STATEMENTS = {
  insertLedgerEntry: `INSERT INTO ledger_entries (tenant_id, seq, kind, episode_id, step_index, body, key_id, mac, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
} as const;

/**
 * The tenant's next ledger entry, signed and chained to its current head, not stored yet: a step's entry is stored
 * as columns of its action_log row (ledger-rows.ts), every other one by appendLedgerEntry.
 */
export async function nextLedgerEntry(sql: SqlConnection, key: ChainKey, tenantId: string, draft: LedgerEntryDraft): Promise<LedgerEntry> {
  const head = await selectLedgerHead(sql, tenantId);
  const unsigned = {
    tenantId,
    seq: (head?.seq ?? 0) + 1,
    kind: draft.kind,
    episodeId: draft.episodeId,
    stepIndex: draft.stepIndex,
    body: canonicalBody(draft),
    createdAt: draft.createdAt,
  };
  return { ...unsigned, keyId: key.id, mac: ledgerMac(key, head?.mac ?? LEDGER_GENESIS, unsigned) };
}

/** Appends one entry (of any kind but a step) to the tenant's ledger; returns the stored entry. */
export async function appendLedgerEntry(sql: SqlConnection, key: ChainKey, tenantId: string, draft: LedgerEntryDraft): Promise<LedgerEntry> {
  const entry = await nextLedgerEntry(sql, key, tenantId, draft);
  await sql.run(LEDGER_STATEMENTS.insertLedgerEntry, [entry.tenantId, entry.seq, entry.kind, entry.episodeId, entry.stepIndex, entry.body, entry.keyId, entry.mac, entry.createdAt]);
  return entry;
}
