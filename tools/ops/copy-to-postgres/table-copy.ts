import type { ClientBase } from 'pg';
import { OperationRefused } from '../operation-refused';
import { quoted } from './quoted-name';
import type { SqliteSource } from './sqlite-source';
import type { TargetTable } from './target-schema';
import { converterFor } from './value-conversion';

/** Rows per INSERT at most: few round trips, and far under PostgreSQL's 65,535 parameters per statement. */
const MAX_ROWS_PER_INSERT = 1000;
const MAX_PARAMETERS_PER_INSERT = 60_000;

/**
 * Copies one table's rows, streamed from the source (a chunk in memory at a time), as multi-row INSERTs on the
 * target's transaction. While PostgreSQL inserts a chunk, the next one is read and converted: at most one INSERT is
 * in flight, so memory stays at two chunks whatever the table's size. Full chunks share one prepared statement.
 * Returns the rows copied.
 */
export async function copyTable(source: SqliteSource, target: ClientBase, table: TargetTable): Promise<number> {
  const columns = table.columns.map((column) => column.name);
  checkSameColumns(source, table);
  const convert = table.columns.map((column) => converterFor(table.name, column.name, column.type));
  const rowsPerInsert = Math.max(1, Math.min(MAX_ROWS_PER_INSERT, Math.floor(MAX_PARAMETERS_PER_INSERT / columns.length)));
  const fullInsert = insertText(table.name, columns, rowsPerInsert);
  let values: unknown[] = [];
  let inChunk = 0;
  let copied = 0;
  let inFlight: Promise<unknown> = Promise.resolve();
  const send = async (text: string, name: string | undefined) => {
    const chunk = values;
    values = [];
    inChunk = 0;
    await inFlight;
    inFlight = target.query({ text, values: chunk, ...(name ? { name } : {}) });
    // A failed INSERT surfaces at the next await; never leave it unobserved meanwhile.
    inFlight.catch(() => undefined);
  };
  for (const row of source.rows(table.name, columns)) {
    for (let i = 0; i < row.length; i++) values.push(convert[i](row[i]));
    inChunk++;
    copied++;
    if (inChunk === rowsPerInsert) await send(fullInsert, `copy_${table.name}`);
  }
  if (inChunk > 0) await send(insertText(table.name, columns, inChunk), undefined);
  await inFlight;
  return copied;
}

function insertText(table: string, columns: string[], rows: number): string {
  const tuples: string[] = [];
  for (let r = 0; r < rows; r++) tuples.push(`(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`);
  return `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(', ')}) VALUES ${tuples.join(', ')}`;
}

/** The two schemas come from one model; a difference means the source is of another release than the target. */
function checkSameColumns(source: SqliteSource, table: TargetTable): void {
  const sourceColumns = [...source.columns(table.name)].sort();
  const targetColumns = table.columns.map((column) => column.name).sort();
  if (sourceColumns.join() !== targetColumns.join()) {
    throw new OperationRefused(
      `the table ${table.name} has columns (${sourceColumns.join(', ')}) on SQLite but (${targetColumns.join(', ')}) on PostgreSQL: the two are not of the same release; the copy was rolled back`,
    );
  }
}
