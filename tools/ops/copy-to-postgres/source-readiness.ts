import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../src/common/project-root';
import { migrationFiles } from '../../../src/database/postgres-migrate';
import { hasTable } from '../database-point';
import { OperationRefused } from '../operation-refused';
import type { SqliteSource } from './sqlite-source';

/** SQLite's migration history, as this release ships it. */
const SQLITE_MIGRATIONS = join(PROJECT_ROOT, 'prisma', 'migrations');

/**
 * What must hold of the source before a row is copied, each refused with what to do about it:
 * - it is at this release's newest SQLite migration: the PostgreSQL schema is this release's, so an older file's
 *   tables would not match it (the SQLite server of this release migrates it at start), and a newer one's would
 *   lose what that release added;
 * - no purge is half-way (purge_guard is empty outside a purge's own transaction: a row left there would let
 *   deletes through the target's append-only rules);
 * - no tenant's deletion is half-way (the SQLite server finishes it at its next start).
 */
export function checkSourceReady(source: SqliteSource): { migration: string } {
  const migration = checkNewestMigration(source);
  const guard = hasTable(source.db, 'purge_guard') ? source.count('purge_guard') : 0;
  if (guard > 0) {
    throw new OperationRefused(`${source.file}: purge_guard holds ${guard} row(s), which only a purge in progress may: the file was left in an inconsistent state; nothing was copied`);
  }
  const deleting = source.db.prepare('SELECT slug FROM tenants WHERE deleting_at IS NOT NULL ORDER BY slug').all() as { slug: string }[];
  if (deleting.length > 0) {
    throw new OperationRefused(
      `tenant(s) ${deleting.map((t) => t.slug).join(', ')} are being deleted: start the SQLite server once (it finishes the deletion at start), stop it, then copy; nothing was changed`,
    );
  }
  return { migration };
}

function checkNewestMigration(source: SqliteSource): string {
  const committed = migrationFiles(SQLITE_MIGRATIONS).map((file) => file.name);
  const newest = committed[committed.length - 1];
  const applied = hasTable(source.db, '_prisma_migrations')
    ? (source.db.prepare('SELECT migration_name AS name, finished_at AS finishedAt, rolled_back_at AS rolledBackAt FROM _prisma_migrations').all() as {
        name: string;
        finishedAt: unknown;
        rolledBackAt: unknown;
      }[])
    : [];
  const failed = applied.filter((row) => row.finishedAt === null && row.rolledBackAt === null);
  if (failed.length > 0) throw new OperationRefused(`${source.file}: migration ${failed[0].name} failed part-way; repair the database first; nothing was changed`);
  const done = new Set(applied.filter((row) => row.finishedAt !== null && row.rolledBackAt === null).map((row) => row.name));
  const unknown = [...done].filter((name) => !committed.includes(name)).sort();
  if (unknown.length > 0) {
    throw new OperationRefused(`${source.file} has migration ${unknown[unknown.length - 1]}, which this release does not have: copy it with the release that migrated it; nothing was changed`);
  }
  const pending = committed.filter((name) => !done.has(name));
  if (pending.length > 0) {
    throw new OperationRefused(
      `${source.file} is not at this release's newest migration (${newest}; ${pending.length} pending, from ${pending[0]}): start this release's SQLite server on it once (it migrates at start), stop it, then copy; nothing was changed`,
    );
  }
  return newest;
}
