import { createHash } from 'node:crypto';
import { withDirect, type DirectDatabase } from './direct-database';

/**
 * sha256 over every row of every table, in primary-key order: equal digests mean equal content. On SQLite or
 * PostgreSQL alike (a digest compares one database with itself, before and after, never across the two).
 *
 * The rate limits' buckets are left out: every request spends from them, the refused ones too (a client is slowed
 * down by what it sends, whatever the answer), so "changed nothing" is said of everything else. On SQLite they are
 * in memory anyway; on PostgreSQL they are rows (src/replicas/postgres-rate-limits.ts).
 */
export function databaseDigest(databaseUrl: string): Promise<string> {
  return withDirect(
    databaseUrl,
    async (db) => {
      const hash = createHash('sha256');
      for (const { name, orderBy } of (await tablesOf(db)).filter((table) => table.name !== 'rate_buckets')) {
        hash.update(`table ${name}\n`);
        for (const row of await db.all(`SELECT * FROM "${name}" ORDER BY ${orderBy}`)) {
          hash.update(`${JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
        }
      }
      return hash.digest('hex');
    },
    { readonly: true },
  );
}

/** The tables, each with the order its rows are read in: its primary key (SQLite's rowid where it has one). */
async function tablesOf(db: DirectDatabase): Promise<{ name: string; orderBy: string }[]> {
  if (db.kind === 'sqlite') {
    const tables = await db.all<{ name: string; wr: number }>(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    );
    const keyOf = async (name: string) =>
      (await db.all<{ name: string }>(`SELECT name FROM pragma_table_info('${name}') WHERE pk > 0 ORDER BY pk`)).map((c) => `"${c.name}"`).join(', ');
    // A WITHOUT ROWID table is read in its primary key's order, which is how it is stored.
    return Promise.all(tables.map(async ({ name, wr }) => ({ name, orderBy: wr ? await keyOf(name) : 'rowid' })));
  }
  const tables = await db.all<{ name: string; key: string }>(
    `SELECT c.relname AS name, string_agg(quote_ident(a.attname), ', ' ORDER BY array_position(i.indkey::int2[], a.attnum)) AS key
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_index i ON i.indrelid = c.oid AND i.indisprimary
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY(i.indkey)
      WHERE n.nspname = current_schema() AND c.relkind = 'r'
      GROUP BY c.relname ORDER BY c.relname`,
  );
  const keyless = await db.all<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = 'r' AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND i.indisprimary)`,
  );
  if (keyless.length > 0) throw new Error(`tables without a primary key cannot be digested in a stable order: ${keyless.map((t) => t.name).join(', ')}`);
  return tables.map(({ name, key }) => ({ name, orderBy: key }));
}
