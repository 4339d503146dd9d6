import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { APPEND_ONLY_TRIGGERS, WITHOUT_ROWID_TABLES } from '../support/append-only-triggers';

const ROOT = join(__dirname, '..', '..');
const MIGRATIONS = join(ROOT, 'prisma', 'migrations');

interface SchemaObject {
  type: string;
  name: string;
  sql: string;
}

/**
 * Tables and indexes with their SQL, whitespace-folded (none around commas and parentheses: SQLite splices an added
 * column into the stored CREATE TABLE text with spacing of its own), leaving out Prisma's and SQLite's bookkeeping.
 */
function schemaOf(db: Database.Database): SchemaObject[] {
  return (db.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name").all() as SchemaObject[])
    .filter((o) => !['_prisma_migrations', 'sqlite_sequence'].includes(o.name) && !o.name.startsWith('sqlite_autoindex'))
    .map((o) => ({ ...o, sql: o.sql.replace(/\s+/g, ' ').replace(/ ?([,()]) ?/g, '$1').trim() }));
}

const migrationDirs = readdirSync(MIGRATIONS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

it('no migration file is empty (a failed `migrate diff` leaves an empty file that deploy would record)', () => {
  expect(migrationDirs.length).toBeGreaterThan(0);
  for (const dir of migrationDirs) {
    const sql = readFileSync(join(MIGRATIONS, dir, 'migration.sql'), 'utf8');
    expect(sql.replace(/--.*$/gm, '').trim().length).toBeGreaterThan(0);
  }
});

it('the committed migrations produce exactly the schema in prisma/schema.prisma', () => {
  const migrated = new Database(process.env.SUPPORTDESK_TEMPLATE_DB!, { readonly: true });
  const applied = migrated.prepare('SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name').all() as any[];
  expect(applied.map((m) => m.migration_name)).toEqual(migrationDirs);
  expect(applied.every((m) => m.finished_at !== null)).toBe(true);

  const fromSchema = execFileSync(
    join(ROOT, 'node_modules', '.bin', 'prisma'),
    ['migrate', 'diff', '--from-empty', '--to-schema-datamodel', 'prisma/schema.prisma', '--script'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const expected = new Database(':memory:');
  expected.exec(fromSchema);

  // Triggers and WITHOUT ROWID added by hand in a migration are not in the Prisma schema; compare tables and
  // indexes, those tables as the schema would make them WITHOUT ROWID...
  const tablesAndIndexes = (o: SchemaObject) => o.type === 'table' || o.type === 'index';
  const withoutRowid = (o: SchemaObject) => (o.type === 'table' && WITHOUT_ROWID_TABLES.includes(o.name) ? { ...o, sql: `${o.sql}WITHOUT ROWID` } : o);
  expect(schemaOf(migrated).filter(tablesAndIndexes)).toEqual(schemaOf(expected).filter(tablesAndIndexes).map(withoutRowid));
  const rowidless = migrated.prepare("SELECT name FROM pragma_table_list WHERE wr = 1 AND schema = 'main' ORDER BY name").all() as { name: string }[];
  expect(rowidless.map((t) => t.name)).toEqual(WITHOUT_ROWID_TABLES);
  // ...and check the hand-written ones are there.
  expect(schemaOf(migrated).filter((o) => o.type === 'trigger').map((o) => o.name)).toEqual(APPEND_ONLY_TRIGGERS);
  migrated.close();
  expected.close();
});

it('prisma/postgresql/schema.prisma is generated from this schema and is current (the one model definition)', () => {
  const check = () => execFileSync(process.execPath, [join(ROOT, 'tools', 'ci', 'postgres-schema.mjs'), '--check'], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
  expect(check).not.toThrow();
  // The PostgreSQL history is applied and compared with that schema on a real server: test/postgres/migrations.spec.ts.
  const lock = readFileSync(join(ROOT, 'prisma', 'postgresql', 'migrations', 'migration_lock.toml'), 'utf8');
  expect(lock).toContain('provider = "postgresql"');
});
