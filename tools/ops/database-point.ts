import type BetterSqlite3 from 'better-sqlite3';
import { LEDGER_ROW_STATEMENTS } from '../../src/episodes/ledger/ledger-rows';

/** Where a database stands: what an operator needs to know which moment a backup holds. */
export interface DatabasePoint {
  /** The newest migration applied, or null for a database never migrated. */
  migration: { name: string; finishedAt: string } | null;
  /** Each tenant ledger's head: its last entry's sequence number (0: empty), by tenant slug. */
  ledgers: { tenant: string; tenantId: string; seq: number }[];
}

/** Read in one transaction, so the migration and every head are of the same moment. */
export function readDatabasePoint(db: BetterSqlite3.Database): DatabasePoint {
  return db.transaction(() => {
    const migration = hasTable(db, '_prisma_migrations')
      ? (db
          .prepare(
            `SELECT migration_name AS name, finished_at AS finishedAt FROM _prisma_migrations
             WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY migration_name DESC LIMIT 1`,
          )
          .get() as { name: string; finishedAt: string } | undefined)
      : undefined;
    // A database of a release before the ledger has tenants but no ledger_entries.
    const tenants = hasTable(db, 'tenants') ? (db.prepare('SELECT id, slug FROM tenants ORDER BY slug').all() as { id: string; slug: string }[]) : [];
    // Since steps and resets carry their own entries (src/episodes/ledger/ledger-rows.ts), a ledger's head may be an
    // action_log or an episodes row.
    const heads = [
      hasTable(db, 'ledger_entries') ? db.prepare(LEDGER_ROW_STATEMENTS.selectEntriesHead) : null,
      hasColumn(db, 'action_log', 'tenant_serial') ? db.prepare(LEDGER_ROW_STATEMENTS.selectStepsHead) : null,
      hasColumn(db, 'episodes', 'ledger_seq') ? db.prepare(LEDGER_ROW_STATEMENTS.selectCreatedHead) : null,
    ].filter((statement) => statement !== null);
    const headOf = (tenantId: string) => Math.max(0, ...heads.map((h) => (h.get(tenantId) as { seq: number } | undefined)?.seq ?? 0));
    const ledgers = tenants.map((t) => ({ tenant: t.slug, tenantId: t.id, seq: headOf(t.id) }));
    return { migration: migration ? { name: migration.name, finishedAt: String(migration.finishedAt) } : null, ledgers };
  })();
}

export function hasTable(db: BetterSqlite3.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

export function hasColumn(db: BetterSqlite3.Database, table: string, column: string): boolean {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === column);
}
