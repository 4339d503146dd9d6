import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/** sha256 over every row of every table, in primary-key order: equal digests mean byte-for-byte equal content. */
export function databaseDigest(databaseUrl: string): string {
  const db = new Database(databaseUrl.slice('file:'.length), { readonly: true });
  try {
    const hash = createHash('sha256');
    const tables = db
      .prepare("SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string; wr: number }[];
    for (const { name, wr } of tables) {
      hash.update(`table ${name}\n`);
      // A WITHOUT ROWID table is read in its primary key's order, which is how it is stored.
      const rows = db.prepare(wr ? `SELECT * FROM "${name}"` : `SELECT * FROM "${name}" ORDER BY rowid`).iterate();
      for (const row of rows) hash.update(`${JSON.stringify(row, (_, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}
