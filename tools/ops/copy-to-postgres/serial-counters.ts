import type { ClientBase } from 'pg';
import { quoted } from './quoted-name';
import type { SqliteSource } from './sqlite-source';
import type { TargetTable } from './target-schema';

export interface SerialCounter {
  table: string;
  column: string;
  /** The value the next row gets. */
  next: number;
}

/**
 * Rows copied with their serials leave the target's sequences at 1: the next tenant, episode or admin event would
 * take a serial already copied and fail on the key. Each sequence is set to continue after the highest value the
 * source ever gave (the copied rows' highest, or SQLite's AUTOINCREMENT record when a purged row had a higher one).
 */
export async function continueSerialCounters(source: SqliteSource, target: ClientBase, tables: TargetTable[]): Promise<SerialCounter[]> {
  const counters: SerialCounter[] = [];
  for (const table of tables) {
    if (table.serialColumn === null) continue;
    const column = table.serialColumn;
    const copied = await target.query<{ high: string | number | null }>(`SELECT MAX(${quoted(column)}) AS high FROM ${quoted(table.name)}`);
    const high = Math.max(Number(copied.rows[0].high ?? 0), source.autoincrementHigh(table.name));
    // setval(…, 1, false) hands out 1 next: a table that never had a row starts where a new database does.
    await target.query('SELECT setval(pg_get_serial_sequence($1, $2), $3, $4)', [quoted(table.name), column, Math.max(high, 1), high > 0]);
    counters.push({ table: table.name, column, next: high + 1 });
  }
  return counters;
}
