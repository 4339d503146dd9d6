import type { SqlConnection } from '../../database/group-commit';
import { hashHex } from '../log-columns';
import type { LedgerEntry } from './ledger-entry';

/*
 * Where a tenant ledger's entries are stored. A step's entry is its action_log row: the row holds its place in the
 * sequence (ledger_seq), the entry's MAC (ledger_mac, 32 bytes), the key when it is not the episode's chain key, and
 * the status after the step when the step ended the episode; every other field of the entry is the row's own
 * (episode, step index, created_at) or follows from it (kind "step", body {row_hash, status}). Every other kind, and
 * the step entries of rows stored before this layout, are rows of ledger_entries. So a step costs one row, not two.
 *
 * ledgerRows() is the union of both, with the columns named as LedgerEntry names them, each arm narrowed by its own
 * WHERE so that each uses its table's index; a compound with ORDER BY is a merge of the two ordered arms, so a page of
 * the ledger reads only the page, never the rest of the tenant's entries.
 */

/** A step entry's body, built as canonicalJson({ row_hash, status }) builds it (ledger-entry.ts stepEntry). */
const STEP_BODY = `'{"row_hash":"' || ${hashHex('a.hash')} || '","status":"' || COALESCE(a.ledger_status, 'active') || '"}'`;

/** The key of a step entry: its own column, or the chain key of its episode when that column is null. */
const STEP_KEY = `COALESCE(a.ledger_key_id, (SELECT e.chain_key_id FROM episodes e WHERE e.id = a.episode_id AND e.tenant_id = a.tenant_id))`;

/**
 * The entries of both tables that match, as one compound SELECT: `entries` filters ledger_entries (its columns by
 * their names), `steps` filters action_log `a` (ledger_seq for seq); both take the same named parameters.
 */
function ledgerRows(entries: string, steps: string, orderAndLimit: string): string {
  return `SELECT tenant_id AS tenantId, seq, kind, episode_id AS episodeId, step_index AS stepIndex, body, key_id AS keyId, mac, created_at AS createdAt
  FROM ledger_entries WHERE ${entries}
UNION ALL
SELECT a.tenant_id, a.ledger_seq, 'step', a.episode_id, a.step_index, ${STEP_BODY}, ${STEP_KEY}, lower(hex(a.ledger_mac)), a.created_at
  FROM action_log a WHERE ${steps}
${orderAndLimit}`.trim();
}

export const LEDGER_ROW_STATEMENTS = {
  selectEntriesHead: `SELECT seq, mac FROM ledger_entries WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1`,
  selectStepsHead: `SELECT ledger_seq AS seq, lower(hex(ledger_mac)) AS mac FROM action_log WHERE tenant_id = ? AND ledger_seq IS NOT NULL ORDER BY ledger_seq DESC LIMIT 1`,
  selectMacAt: `SELECT mac FROM ledger_entries WHERE tenant_id = @tenant AND seq = @seq
UNION ALL
SELECT lower(hex(ledger_mac)) FROM action_log WHERE tenant_id = @tenant AND ledger_seq = @seq`,
  // The episode's own rows by their index, (episode_id, tenant_id, step_index), and no ORDER BY, which would walk
  // the tenant's whole ledger_seq index: an episode's few entries are put in order after they are read.
  selectEntriesOfEpisode: ledgerRows('tenant_id = @tenant AND episode_id = @episode', 'a.episode_id = @episode AND a.tenant_id = @tenant AND +a.ledger_seq IS NOT NULL', ''),
  selectEntryAt: ledgerRows('tenant_id = @tenant AND seq = @seq', 'a.tenant_id = @tenant AND a.ledger_seq = @seq', ''),
  countBetween: `SELECT (SELECT COUNT(*) FROM ledger_entries WHERE tenant_id = @tenant AND seq > @after AND seq < @before)
     + (SELECT COUNT(*) FROM action_log WHERE tenant_id = @tenant AND ledger_seq > @after AND ledger_seq < @before) AS n`,
  selectPage: ledgerRows('tenant_id = @tenant AND seq > @after', 'a.tenant_id = @tenant AND a.ledger_seq > @after', 'ORDER BY seq LIMIT @take'),
} as const;

/** created_at is ISO text in ledger_entries and Unix milliseconds in action_log (log-columns.ts). */
type StoredLedgerRow = Omit<LedgerEntry, 'createdAt'> & { createdAt: string | number };

/** The entry as stored rows give it: its timestamp parsed. */
export function ledgerEntryOf(row: StoredLedgerRow): LedgerEntry {
  return { ...row, createdAt: new Date(row.createdAt) };
}

/** The last entry of a tenant's ledger: its place and MAC (undefined: the ledger is empty). */
export function selectLedgerHead(sql: SqlConnection, tenantId: string): { seq: number; mac: string } | undefined {
  type Head = { seq: number; mac: string } | undefined;
  const entries = sql.statement(LEDGER_ROW_STATEMENTS.selectEntriesHead).get(tenantId) as Head;
  const steps = sql.statement(LEDGER_ROW_STATEMENTS.selectStepsHead).get(tenantId) as Head;
  return !entries || (steps && steps.seq > entries.seq) ? steps : entries;
}

/** The MAC of the tenant's entry `seq`, wherever it is stored (undefined: no such entry). */
export function selectLedgerMacAt(sql: SqlConnection, tenantId: string, seq: number): string | undefined {
  return (sql.statement(LEDGER_ROW_STATEMENTS.selectMacAt).get({ tenant: tenantId, seq }) as { mac: string } | undefined)?.mac;
}

/** Every entry of one episode in the tenant ledger, in order. */
export function selectLedgerEntriesOfEpisode(sql: SqlConnection, tenantId: string, episodeId: string): LedgerEntry[] {
  const rows = sql.statement(LEDGER_ROW_STATEMENTS.selectEntriesOfEpisode).all({ tenant: tenantId, episode: episodeId }) as StoredLedgerRow[];
  return rows.map(ledgerEntryOf).sort((a, b) => a.seq - b.seq);
}

/** The episode's last entry in the tenant ledger (null: it has none). */
export function selectLastLedgerEntryOfEpisode(sql: SqlConnection, tenantId: string, episodeId: string): LedgerEntry | null {
  return selectLedgerEntriesOfEpisode(sql, tenantId, episodeId).at(-1) ?? null;
}

/** The tenant's entry `seq`, wherever it is stored (null: no such entry). */
export function selectLedgerEntryAt(sql: SqlConnection, tenantId: string, seq: number): LedgerEntry | null {
  const row = sql.statement(LEDGER_ROW_STATEMENTS.selectEntryAt).get({ tenant: tenantId, seq }) as StoredLedgerRow | undefined;
  return row ? ledgerEntryOf(row) : null;
}

/** How many entries the tenant's ledger holds strictly between entries `after` and `before`. */
export function countLedgerEntriesBetween(sql: SqlConnection, tenantId: string, after: number, before: number): number {
  return (sql.statement(LEDGER_ROW_STATEMENTS.countBetween).get({ tenant: tenantId, after, before }) as { n: number }).n;
}

/** Up to `take` entries of a tenant's ledger after entry `afterSeq`, in order. */
export function selectLedgerPage(sql: SqlConnection, tenantId: string, afterSeq: number, take: number): LedgerEntry[] {
  return (sql.statement(LEDGER_ROW_STATEMENTS.selectPage).all({ tenant: tenantId, after: afterSeq, take }) as StoredLedgerRow[]).map(ledgerEntryOf);
}
