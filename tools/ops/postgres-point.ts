import { migrationFiles } from '../../src/database/postgres-migrate';
import type { SqlConnection } from '../../src/database/sql-connection';
import { LEDGER_ROW_STATEMENTS } from '../../src/episodes/ledger/ledger-rows';
import type { DatabasePoint } from './database-point';
import type { KeyIds } from './keys-used';

/*
 * What database-point.ts and keys-used.ts read from a SQLite file, read from a PostgreSQL database through the
 * server's own connection class (the statements the repositories share, translated as the server translates them).
 * PostgreSQL's history begins with the ledger in its present layout, so there are no older layouts to allow for;
 * only a database never migrated has no tables at all.
 */

/** Where the database stands. Run it inside the transaction whose moment it describes (the backup's snapshot). */
export async function readPostgresPoint(sql: SqlConnection): Promise<DatabasePoint> {
  if (!(await migrated(sql))) return { migration: null, ledgers: [] };
  const migration = await sql.get<{ name: string; finishedAt: number }>(
    `SELECT migration_name AS name, finished_at AS "finishedAt" FROM "_prisma_migrations"
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name DESC LIMIT 1`,
  );
  // Byte order, as SQLite sorts the slugs: the same backup lists its tenants alike on both.
  const tenants = await sql.all<{ id: string; slug: string }>('SELECT id, slug FROM tenants ORDER BY slug COLLATE "C"');
  const ledgers: DatabasePoint['ledgers'] = [];
  for (const tenant of tenants) {
    let seq = 0;
    for (const head of [LEDGER_ROW_STATEMENTS.selectEntriesHead, LEDGER_ROW_STATEMENTS.selectStepsHead, LEDGER_ROW_STATEMENTS.selectCreatedHead]) {
      seq = Math.max(seq, (await sql.get<{ seq: number }>(head, [tenant.id]))?.seq ?? 0);
    }
    ledgers.push({ tenant: tenant.slug, tenantId: tenant.id, seq });
  }
  return { migration: migration ? { name: migration.name, finishedAt: new Date(migration.finishedAt).toISOString() } : null, ledgers };
}

/** The ids of the keys the database's episodes, seals and ledgers were made with (as keysUsedBy on SQLite). */
export async function postgresKeysUsed(sql: SqlConnection): Promise<KeyIds> {
  if (!(await migrated(sql))) return { chain: [], privateSplit: [] };
  const ids = async (table: string, column: string) =>
    (await sql.all<{ id: string }>(`SELECT DISTINCT ${column} AS id FROM ${table} WHERE ${column} IS NOT NULL`)).map((row) => row.id);
  const chain = [
    ...(await ids('episodes', 'chain_key_id')),
    ...(await ids('legacy_chain_seals', 'key_id')),
    ...(await ids('ledger_entries', 'key_id')),
    ...(await ids('action_log', 'ledger_key_id')),
  ];
  return { chain: [...new Set(chain)].sort(), privateSplit: (await ids('episodes', 'split_key_id')).sort() };
}

/** The committed PostgreSQL migrations the database has not applied: the server applies them when it starts. */
export async function postgresPendingMigrations(sql: SqlConnection): Promise<string[]> {
  const committed = migrationFiles().map((file) => file.name);
  if (!(await migrated(sql))) return committed;
  const applied = await sql.all<{ name: string }>(
    'SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
  );
  const done = new Set(applied.map((row) => row.name));
  return committed.filter((name) => !done.has(name));
}

async function migrated(sql: SqlConnection): Promise<boolean> {
  return (await sql.get<{ present: boolean }>(`SELECT to_regclass('public."_prisma_migrations"') IS NOT NULL AS present`))!.present;
}
