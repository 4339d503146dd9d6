import { storedJsonObject } from '../../common/json';
import type { SqlConnection } from '../../database/sql-connection';
import type { ChainKey } from '../hash-chain';
import { LEDGER_GENESIS, ledgerMac, type LedgerEntry, type LedgerEntryDraft } from '../ledger/ledger-entry';
import { ledgerEntryOf, selectLastLedgerEntryOfEpisode, selectLedgerMacAt } from '../ledger/ledger-rows';

/*
 * What a purge decides from. The rows' own columns (a tenant's retention_days, an episode's status and updated_at)
 * are not signed: someone with the database file could set them to make the server purge, and sign, what it should
 * not. So the sweep acts only on facts the ledger holds under the chain key: the retention period is the latest
 * "tenant.retention" entry, and an episode is purged only when its last ledger entry, under a MAC that holds, says
 * it ended, and was written before the cut-off.
 */

export const SIGNED_FACT_STATEMENTS = {
  selectLatestTenantEntry: `SELECT tenant_id AS "tenantId", seq, kind, episode_id AS "episodeId", step_index AS "stepIndex", body, key_id AS "keyId", mac, created_at AS "createdAt"
  FROM ledger_entries WHERE tenant_id = ? AND episode_id = '' AND kind = ? ORDER BY seq DESC LIMIT 1`,
  selectGapMacEndingAt: `SELECT last_mac AS mac FROM ledger_gaps WHERE tenant_id = ? AND last_seq = ?`,
} as const;

export type KeyById = (id: string) => ChainKey | null;

/** A tenant's retention period as its ledger says it was last set (null: none, or nothing signed says so). */
export async function signedRetentionDays(sql: SqlConnection, keyById: KeyById, tenantId: string): Promise<number | null> {
  const entry = await readEntry(sql, SIGNED_FACT_STATEMENTS.selectLatestTenantEntry, tenantId, 'tenant.retention');
  if (!entry || !(await macHolds(sql, keyById, entry))) return null;
  const days = storedJsonObject(entry.body).retention_days;
  return typeof days === 'number' && Number.isInteger(days) && days > 0 ? days : null;
}

/** Whether the episode's last ledger entry, under a MAC that holds, records its end, before `cutoff`. */
export async function signedEndedBefore(sql: SqlConnection, keyById: KeyById, tenantId: string, episodeId: string, cutoff: Date): Promise<boolean> {
  const last = await selectLastLedgerEntryOfEpisode(sql, tenantId, episodeId);
  if (!last || last.createdAt >= cutoff || !(await macHolds(sql, keyById, last))) return false;
  if (last.kind === 'episode.expired') return true;
  const status = storedJsonObject(last.body).status;
  return (last.kind === 'step' || last.kind === 'episode.enrolled') && typeof status === 'string' && status !== 'active';
}

/** What the ledger records when the admin sets or clears a tenant's retention period. */
export function retentionEntry(days: number | null, at: Date): LedgerEntryDraft {
  return { kind: 'tenant.retention', episodeId: '', stepIndex: 0, createdAt: at, body: { retention_days: days } };
}

async function readEntry(sql: SqlConnection, statement: string, tenantId: string, second: string): Promise<LedgerEntry | null> {
  const row = (await sql.get(statement, [tenantId, second])) as (Omit<LedgerEntry, 'createdAt'> & { createdAt: number }) | undefined;
  return row ? ledgerEntryOf(row) : null;
}

/** The entry's MAC over the MAC before it: the previous entry's, or the one a purged stretch kept. */
async function macHolds(sql: SqlConnection, keyById: KeyById, entry: LedgerEntry): Promise<boolean> {
  const key = keyById(entry.keyId);
  if (!key) return false;
  const before =
    entry.seq === 1
      ? LEDGER_GENESIS
      : ((await selectLedgerMacAt(sql, entry.tenantId, entry.seq - 1)) ??
        ((await sql.get(SIGNED_FACT_STATEMENTS.selectGapMacEndingAt, [entry.tenantId, entry.seq - 1])) as { mac: string } | undefined)?.mac);
  if (before === undefined) return false;
  const { mac, keyId: _keyId, ...unsigned } = entry;
  return ledgerMac(key, before, unsigned) === mac;
}
