import type BetterSqlite3 from 'better-sqlite3';
import { LEDGER_ROW_STATEMENTS } from '../../src/episodes/ledger/ledger-rows';
import { hasColumn, hasTable, type DatabasePoint } from './database-point';

/*
 * The ledger checkpoint file (src/episodes/ledger/ledger-checkpoints.ts) against a copy of the database. A backup is
 * a snapshot; the file goes on growing. Its lines past a ledger's head in the snapshot name entries written after
 * the snapshot was taken: a server started on the restored copy would take the newest of them for the checkpoint its
 * ledger must reach, and report the ledger cut. So a backup carries the lines its snapshot reaches, and the restore
 * puts those in place.
 */

/** A line as the server writes it; the signature is the server's to check (it needs the chain key). */
export interface CheckpointRecord {
  tenant_id: string;
  seq: number;
  mac: string;
  at: string;
}

export interface CheckpointSelection {
  /** The lines whose entry is within the snapshot's ledger, in the file's order (the server takes the last per tenant). */
  kept: string[];
  /** Per tenant, the newest line past the snapshot's head: checkpoints of entries the snapshot does not have. */
  beyond: { tenant: string; seq: number; at: string }[];
  /**
   * Lines within the snapshot's ledger whose entry the snapshot holds with another MAC: the ledger was rewritten
   * before the backup. Kept, so that verify on the restored copy reports it as it did on the original.
   */
  contradicted: { tenant: string; seq: number; at: string }[];
  /** Lines that are not checkpoint records (a server reading the file reports and skips them too). */
  unreadable: number;
}

/** Sorts the lines of a checkpoint file against the ledgers of `db` (the snapshot), whose heads are in `point`. */
export function selectCheckpoints(db: BetterSqlite3.Database, point: DatabasePoint, text: string): CheckpointSelection {
  return sortCheckpointLines(point, text, checkpointHeldBy(db));
}

/**
 * The sorting itself, given how to tell whether the snapshot holds a checkpointed entry: a SQLite copy answers at
 * once (checkpointHeldBy); PostgreSQL's snapshot is asked beforehand (postgres-checkpoint-selection.ts).
 */
export function sortCheckpointLines(point: DatabasePoint, text: string, holds: (record: CheckpointRecord) => boolean): CheckpointSelection {
  const heads = new Map(point.ledgers.map((l) => [l.tenantId, l]));
  const selection: CheckpointSelection = { kept: [], beyond: [], contradicted: [], unreadable: 0 };
  const beyond = new Map<string, { tenant: string; seq: number; at: string }>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const record = parseRecord(line);
    const head = record && heads.get(record.tenant_id);
    if (!record) {
      selection.unreadable++;
    } else if (!head || record.seq > head.seq) {
      // A tenant the snapshot does not have yet was created after it, like any entry past a head.
      const tenant = head?.tenant ?? record.tenant_id;
      if ((beyond.get(record.tenant_id)?.seq ?? -1) < record.seq) beyond.set(record.tenant_id, { tenant, seq: record.seq, at: record.at });
    } else {
      selection.kept.push(line);
      if (!holds(record)) selection.contradicted.push({ tenant: head.tenant, seq: record.seq, at: record.at });
    }
  }
  selection.beyond = [...beyond.values()];
  return selection;
}

/** The readable lines of a checkpoint file whose entry is within a ledger of `point`: those whose entry must be looked up. */
export function checkpointsWithin(point: DatabasePoint, text: string): CheckpointRecord[] {
  const heads = new Map(point.ledgers.map((l) => [l.tenantId, l.seq]));
  return text
    .split('\n')
    .map((line) => (line.trim() === '' ? null : parseRecord(line)))
    .filter((record): record is CheckpointRecord => record !== null && record.seq <= (heads.get(record.tenant_id) ?? -1));
}

/**
 * Whether the database still holds a checkpointed entry, as the server judges it before writing a new checkpoint
 * (ledger-checkpoints.ts): the entry with the checkpointed MAC, or, once a retention purge removed the entry, the gap
 * recorded in its place (at the gap's end, with the checkpointed MAC). Databases from before purges have no gaps.
 */
function checkpointHeldBy(db: BetterSqlite3.Database): (record: CheckpointRecord) => boolean {
  // Entries in all three places (src/episodes/ledger/ledger-rows.ts), or, before steps and resets carried their own,
  // ledger_entries alone.
  const macAt = hasColumn(db, 'episodes', 'ledger_seq') ? LEDGER_ROW_STATEMENTS.selectMacAt : 'SELECT mac FROM ledger_entries WHERE tenant_id = @tenant AND seq = @seq';
  const entryMac = hasTable(db, 'ledger_entries') ? db.prepare(macAt) : null;
  const gapAt = hasTable(db, 'ledger_gaps') ? db.prepare(SELECT_GAP_COVERING) : null;
  return (record) =>
    checkpointHeld(
      record,
      entryMac?.get({ tenant: record.tenant_id, seq: record.seq }) as { mac: string } | undefined,
      gapAt?.get(record.tenant_id, record.seq, record.seq) as LedgerGap | undefined,
    );
}

/** The gap a retention purge recorded over a tenant's entry (tenant, seq, seq), in the SQL both databases read. */
export const SELECT_GAP_COVERING = 'SELECT last_seq AS "lastSeq", last_mac AS "lastMac" FROM ledger_gaps WHERE tenant_id = ? AND first_seq <= ? AND last_seq >= ?';

export interface LedgerGap {
  lastSeq: number;
  lastMac: string;
}

/** The judgement, given the entry at the checkpoint's seq (if the database holds it) and the gap over it (if purged). */
export function checkpointHeld(record: CheckpointRecord, entry: { mac: string } | undefined, gap: LedgerGap | undefined): boolean {
  if (entry) return entry.mac === record.mac;
  return gap !== undefined && (gap.lastSeq !== record.seq || gap.lastMac === record.mac);
}

/** Per tenant id, the newest checkpoint a file names (last line wins, as the server reads it); signatures unchecked. */
export function newestCheckpoints(text: string): Map<string, { seq: number; at: string }> {
  const newest = new Map<string, { seq: number; at: string }>();
  for (const line of text.split('\n')) {
    const record = line.trim() === '' ? null : parseRecord(line);
    if (record) newest.set(record.tenant_id, { seq: record.seq, at: record.at });
  }
  return newest;
}

function parseRecord(line: string): CheckpointRecord | null {
  try {
    const record = JSON.parse(line) as Partial<CheckpointRecord>;
    const valid =
      typeof record.tenant_id === 'string' && Number.isInteger(record.seq) && typeof record.mac === 'string' && typeof record.at === 'string';
    return valid ? (record as CheckpointRecord) : null;
  } catch {
    return null;
  }
}
