import type { SqlConnection } from '../../src/database/sql-connection';
import { LEDGER_ROW_STATEMENTS } from '../../src/episodes/ledger/ledger-rows';
import {
  checkpointHeld,
  checkpointsWithin,
  SELECT_GAP_COVERING,
  sortCheckpointLines,
  type CheckpointRecord,
  type CheckpointSelection,
  type LedgerGap,
} from './checkpoint-selection';
import type { DatabasePoint } from './database-point';

/**
 * selectCheckpoints for a PostgreSQL snapshot: the same sorting and the same judgement of each line, with the
 * entries each line names looked up first (a network round trip each, so once per distinct line), in the snapshot's
 * transaction. Lines past the snapshot's heads are never looked up: they are left out whatever the database says.
 */
export async function selectPostgresCheckpoints(sql: SqlConnection, point: DatabasePoint, text: string): Promise<CheckpointSelection> {
  const held = new Set<string>();
  const seen = new Set<string>();
  for (const record of checkpointsWithin(point, text)) {
    const key = keyOf(record);
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = await sql.get<{ mac: string }>(LEDGER_ROW_STATEMENTS.selectMacAt, { tenant: record.tenant_id, seq: record.seq });
    const gap = entry ? undefined : await sql.get<LedgerGap>(SELECT_GAP_COVERING, [record.tenant_id, record.seq, record.seq]);
    if (checkpointHeld(record, entry, gap)) held.add(key);
  }
  return sortCheckpointLines(point, text, (record) => held.has(keyOf(record)));
}

function keyOf(record: CheckpointRecord): string {
  return `${record.tenant_id}\n${record.seq}\n${record.mac}`;
}
