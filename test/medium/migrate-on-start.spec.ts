import BetterSqlite3 from 'better-sqlite3';
import { migrateIfPending, pendingMigrations } from '../../src/database/migrate';
import { freshDatabaseUrl } from '../support/test-app';

/*
 * The start sequence's migration step: a second server on a file another one is serving must start (no lock is
 * taken when nothing is pending), and pending migrations on a locked file wait, then fail naming the file.
 */

it('does nothing, and takes no lock, when the file is up to date, even while another process holds the write lock', async () => {
  const url = freshDatabaseUrl();
  expect(pendingMigrations(url)).toEqual([]);
  const holder = new BetterSqlite3(url.slice('file:'.length));
  holder.pragma('journal_mode = WAL');
  holder.exec('BEGIN IMMEDIATE');
  try {
    const started = Date.now();
    expect(await migrateIfPending(url, 10_000, () => undefined)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(1_000);
  } finally {
    holder.exec('ROLLBACK');
    holder.close();
  }
});

it('applies what is pending to a new file', async () => {
  const url = freshDatabaseUrl().replace('test.db', 'new.db');
  const pending = pendingMigrations(url);
  expect(pending.length).toBeGreaterThan(3);
  expect(await migrateIfPending(url, 1_000, () => undefined)).toEqual(pending);
  expect(pendingMigrations(url)).toEqual([]);
});

it('waits for a lock held by another process while migrations are pending, then fails naming the file', async () => {
  const url = freshDatabaseUrl();
  const file = url.slice('file:'.length);
  // Make the last migration pending again, as a newer release would find it.
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL'); // as a running server keeps it
  const last = (db.prepare('SELECT migration_name AS name FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1').get() as { name: string }).name;
  db.prepare('DELETE FROM _prisma_migrations WHERE migration_name = ?').run(last);
  db.exec('BEGIN IMMEDIATE'); // a running server's write
  const notes: string[] = [];
  try {
    await expect(migrateIfPending(url, 1_500, (note) => notes.push(note))).rejects.toThrow(
      new RegExp(`1 migration\\(s\\) are pending but ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is locked by another process`),
    );
    // Told while waiting (unless the first attempt alone outlasted the wait).
    expect(notes.every((note) => /^waiting for .* another process holds its lock/.test(note))).toBe(true);
  } finally {
    db.exec('ROLLBACK');
    db.close();
  }
});
