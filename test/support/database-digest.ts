import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';

/** sha256 over every row of every table, in primary-key order: equal digests mean byte-for-byte equal content. */
export function databaseDigest(databaseUrl: string): string {
  const db = new Database(databaseUrl.slice('file:'.length), { readonly: true });
  try {
    const hash = createHash('sha256');
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { name: string }[];
    for (const { name } of tables) {
      hash.update(`table ${name}\n`);
      for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).iterate()) hash.update(`${JSON.stringify(row)}\n`);
    }
    return hash.digest('hex');
  } finally {
    db.close();
  }
}
