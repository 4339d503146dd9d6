import type { SqlConnection } from '../../database/sql-connection';
import { episodeSerial, hashHex, tenantSerial } from '../log-columns';
import type { LedgerEntry } from './ledger-entry';

/*
 * Where a tenant ledger's entries are stored. Most entries are not rows of their own:
 * - A step's entry is its action_log row: the row holds its place in the sequence (ledger_seq), the entry's MAC
 *   (ledger_mac, 32 bytes), the key when it is not the episode's chain key, and the status after the step when the
 *   step ended the episode; every other field of the entry is the row's own (step index, created_at) or follows from
 *   it (kind "step", body {row_hash, status}). The row names its episode by serial: the arm joins the episode (by its
 *   rowid) for the ids and the chain key.
 * - An episode's creation entry is its episodes row: ledger_seq, ledger_mac and the digest its body commits to
 *   (facts_sha256), under the episode's chain key, at its created_at.
 * Every other kind, and the entries of rows stored before these layouts, are rows of ledger_entries. So a step or a
 * reset writes one row, not two.
 *
 * ledgerRows() is the union of the three, with the columns named as LedgerEntry names them, each arm narrowed by its
 * own WHERE so that each uses its table's index; a compound with ORDER BY is a merge of the ordered arms, so a page
 * of the ledger reads only the page, never the rest of the tenant's entries.
 */

/** A step entry's body, built as canonicalJson({ row_hash, status }) builds it (ledger-entry.ts stepEntry). */
const STEP_BODY = `'{"row_hash":"' || ${hashHex('a.hash')} || '","status":"' || COALESCE(a.ledger_status, 'active') || '"}'`;

/** A creation entry's body, built as canonicalJson({ facts_sha256 }) builds it (ledger-entry.ts createdEntry). */
const CREATED_BODY = `'{"facts_sha256":"' || ${hashHex('c.facts_sha256')} || '"}'`;

/** The key of a step entry: its own column, or the chain key of its episode `e` when that column is null. */
const STEP_KEY = `COALESCE(a.ledger_key_id, e.chain_key_id)`;

/** The action_log rows of the tenant @tenant, in SQL. */
const TENANT_STEPS = `a.tenant_serial = ${tenantSerial('@tenant')}`;

/** Where each arm's entries are: `entries` filters ledger_entries (its columns by their names), `steps` action_log
 * `a` (ledger_seq for seq) with its episode `e`, `created` the episodes `c` (ledger_seq for seq); all three take the
 * same named parameters. */
interface ArmFilters {
  entries: string;
  steps: string;
  created: string;
}

/** The entries of the three places that match, as one compound SELECT. */
function ledgerRows(where: ArmFilters, orderAndLimit: string): string {
  return `SELECT tenant_id AS "tenantId", seq, kind, episode_id AS "episodeId", step_index AS "stepIndex", body, key_id AS "keyId", mac, epoch_ms(created_at) AS "createdAt"
  FROM ledger_entries WHERE ${where.entries}
UNION ALL
SELECT e.tenant_id, a.ledger_seq, 'step', e.id, a.step_index, ${STEP_BODY}, ${STEP_KEY}, lower(hex(a.ledger_mac)), a.created_at
  FROM action_log a JOIN episodes e ON e.serial = a.episode_serial WHERE ${where.steps}
UNION ALL
SELECT c.tenant_id, c.ledger_seq, 'episode.created', c.id, 0, ${CREATED_BODY}, c.chain_key_id, lower(hex(c.ledger_mac)), epoch_ms(c.created_at)
  FROM episodes c WHERE ${where.created}
${orderAndLimit}`.trim();
}

/** Each arm narrowed to the tenant's entries `seqCondition` says (SQL over `seq`, e.g. "= @seq"). */
const tenantEntries = (seqCondition: string): ArmFilters => ({
  entries: `tenant_id = @tenant AND seq ${seqCondition}`,
  steps: `${TENANT_STEPS} AND a.ledger_seq ${seqCondition}`,
  created: `c.tenant_id = @tenant AND c.ledger_seq ${seqCondition}`,
});

export const LEDGER_ROW_STATEMENTS = {
  selectEntriesHead: `SELECT seq, mac FROM ledger_entries WHERE tenant_id = ? ORDER BY seq DESC LIMIT 1`,
  selectStepsHead: `SELECT ledger_seq AS seq, lower(hex(ledger_mac)) AS mac FROM action_log WHERE tenant_serial = ${tenantSerial()} AND ledger_seq IS NOT NULL ORDER BY ledger_seq DESC LIMIT 1`,
  selectCreatedHead: `SELECT ledger_seq AS seq, lower(hex(ledger_mac)) AS mac FROM episodes WHERE tenant_id = ? AND ledger_seq IS NOT NULL ORDER BY ledger_seq DESC LIMIT 1`,
  selectMacAt: `SELECT mac FROM ledger_entries WHERE tenant_id = @tenant AND seq = @seq
UNION ALL
SELECT lower(hex(ledger_mac)) FROM action_log a WHERE ${TENANT_STEPS} AND a.ledger_seq = @seq
UNION ALL
SELECT lower(hex(ledger_mac)) FROM episodes c WHERE c.tenant_id = @tenant AND c.ledger_seq = @seq`,
  // The episode's own rows by their keys, (episode_serial, step_index) and (id, tenant_id), and no ORDER BY, which
  // would walk the tenant's whole ledger_seq index: an episode's few entries are put in order after they are read.
  selectEntriesOfEpisode: ledgerRows(
    {
      entries: 'tenant_id = @tenant AND episode_id = @episode',
      steps: `a.episode_serial = ${episodeSerial('@episode', '@tenant')} AND +a.ledger_seq IS NOT NULL`,
      created: 'c.id = @episode AND c.tenant_id = @tenant AND +c.ledger_seq IS NOT NULL',
    },
    '',
  ),
  selectEntryAt: ledgerRows(tenantEntries('= @seq'), ''),
  countBetween: `SELECT (SELECT COUNT(*) FROM ledger_entries WHERE tenant_id = @tenant AND seq > @after AND seq < @before)
     + (SELECT COUNT(*) FROM action_log a WHERE ${TENANT_STEPS} AND a.ledger_seq > @after AND a.ledger_seq < @before)
     + (SELECT COUNT(*) FROM episodes c WHERE c.tenant_id = @tenant AND c.ledger_seq > @after AND c.ledger_seq < @before) AS n`,
  selectPage: ledgerRows(tenantEntries('> @after'), 'ORDER BY seq LIMIT @take'),
} as const;

/** created_at in Unix milliseconds, as every stored time (src/database/sqlite-timestamp.ts). */
type StoredLedgerRow = Omit<LedgerEntry, 'createdAt'> & { createdAt: number };

/** The entry as stored rows give it: its timestamp parsed. */
export function ledgerEntryOf(row: StoredLedgerRow): LedgerEntry {
  return { ...row, createdAt: new Date(row.createdAt) };
}

/** The last entry of a tenant's ledger: its place and MAC (undefined: the ledger is empty). */
export async function selectLedgerHead(sql: SqlConnection, tenantId: string): Promise<{ seq: number; mac: string } | undefined> {
  type Head = { seq: number; mac: string } | undefined;
  let latest: Head;
  for (const statement of [LEDGER_ROW_STATEMENTS.selectEntriesHead, LEDGER_ROW_STATEMENTS.selectStepsHead, LEDGER_ROW_STATEMENTS.selectCreatedHead]) {
    const head = await sql.get<{ seq: number; mac: string }>(statement, [tenantId]);
    if (head !== undefined && (latest === undefined || head.seq > latest.seq)) latest = head;
  }
  return latest;
}

/** The MAC of the tenant's entry `seq`, wherever it is stored (undefined: no such entry). */
export async function selectLedgerMacAt(sql: SqlConnection, tenantId: string, seq: number): Promise<string | undefined> {
  return (await sql.get<{ mac: string }>(LEDGER_ROW_STATEMENTS.selectMacAt, { tenant: tenantId, seq }))?.mac;
}

/** Every entry of one episode in the tenant ledger, in order. */
export async function selectLedgerEntriesOfEpisode(sql: SqlConnection, tenantId: string, episodeId: string): Promise<LedgerEntry[]> {
  const rows = await sql.all<StoredLedgerRow>(LEDGER_ROW_STATEMENTS.selectEntriesOfEpisode, { tenant: tenantId, episode: episodeId });
  return rows.map(ledgerEntryOf).sort((a, b) => a.seq - b.seq);
}

/** The episode's last entry in the tenant ledger (null: it has none). */
export async function selectLastLedgerEntryOfEpisode(sql: SqlConnection, tenantId: string, episodeId: string): Promise<LedgerEntry | null> {
  return (await selectLedgerEntriesOfEpisode(sql, tenantId, episodeId)).at(-1) ?? null;
}

/** The tenant's entry `seq`, wherever it is stored (null: no such entry). */
export async function selectLedgerEntryAt(sql: SqlConnection, tenantId: string, seq: number): Promise<LedgerEntry | null> {
  const row = await sql.get<StoredLedgerRow>(LEDGER_ROW_STATEMENTS.selectEntryAt, { tenant: tenantId, seq });
  return row ? ledgerEntryOf(row) : null;
}

/** How many entries the tenant's ledger holds strictly between entries `after` and `before`. */
export async function countLedgerEntriesBetween(sql: SqlConnection, tenantId: string, after: number, before: number): Promise<number> {
  return (await sql.get<{ n: number }>(LEDGER_ROW_STATEMENTS.countBetween, { tenant: tenantId, after, before }))!.n;
}

/** Up to `take` entries of a tenant's ledger after entry `afterSeq`, in order. */
export async function selectLedgerPage(sql: SqlConnection, tenantId: string, afterSeq: number, take: number): Promise<LedgerEntry[]> {
  return (await sql.all<StoredLedgerRow>(LEDGER_ROW_STATEMENTS.selectPage, { tenant: tenantId, after: afterSeq, take })).map(ledgerEntryOf);
}
