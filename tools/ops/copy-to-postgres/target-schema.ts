import type { ClientBase } from 'pg';
import { OperationRefused } from '../operation-refused';
import { SUPPORTED_TYPES, type PostgresColumnType } from './value-conversion';

/** Prisma's history table: the target keeps its own (the migration runner's), never the source's. */
export const HISTORY_TABLE = '_prisma_migrations';

export interface TargetTable {
  name: string;
  columns: { name: string; type: PostgresColumnType }[];
  /** The column a sequence numbers (SERIAL: tenants.serial, episodes.serial, admin_events.id), or null. */
  serialColumn: string | null;
}

/**
 * The target's tables as its migrations made them, read from PostgreSQL's catalog rather than listed here, so a
 * table or column a later migration adds is copied without this tool changing: in foreign-key order (a table after
 * every table it references), each with its columns' types and its serial column.
 */
export async function readTargetSchema(client: ClientBase): Promise<TargetTable[]> {
  const columns = await client.query<{ table_name: string; column_name: string; data_type: string; column_default: string | null }>(
    `SELECT table_name, column_name, data_type, column_default FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name <> $1 ORDER BY table_name, ordinal_position`,
    [HISTORY_TABLE],
  );
  const tables = new Map<string, TargetTable>();
  for (const row of columns.rows) {
    if (!SUPPORTED_TYPES.includes(row.data_type)) {
      throw new OperationRefused(`the target's column ${row.table_name}.${row.column_name} is of type ${row.data_type}, which this tool does not know how to fill`);
    }
    const table = tables.get(row.table_name) ?? { name: row.table_name, columns: [], serialColumn: null };
    table.columns.push({ name: row.column_name, type: row.data_type as PostgresColumnType });
    if (row.column_default?.startsWith('nextval(')) table.serialColumn = row.column_name;
    tables.set(row.table_name, table);
  }
  const references = await client.query<{ child: string; parent: string }>(
    `SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
     JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
     WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace`,
  );
  return inReferenceOrder([...tables.values()], references.rows);
}

/** Parents before children; by name among equals, so every run copies in the same order. */
function inReferenceOrder(tables: TargetTable[], references: { child: string; parent: string }[]): TargetTable[] {
  const ordered: TargetTable[] = [];
  const placed = new Set<string>();
  let remaining = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  while (remaining.length > 0) {
    const ready = remaining.filter((t) => references.every((r) => r.child !== t.name || r.parent === t.name || placed.has(r.parent)));
    if (ready.length === 0) throw new Error(`the target's foreign keys form a cycle among ${remaining.map((t) => t.name).join(', ')}`);
    for (const table of ready) {
      ordered.push(table);
      placed.add(table.name);
    }
    remaining = remaining.filter((t) => !placed.has(t.name));
  }
  return ordered;
}

/** The tables of the target's schema, whatever made them (an empty list: a new database). */
export async function tablesOf(client: ClientBase): Promise<string[]> {
  const result = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  return result.rows.map((row) => row.table_name);
}
