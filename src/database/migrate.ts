import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { PROJECT_ROOT as ROOT } from '../common/project-root';
import { MigrationError } from './migration-error';

const MIGRATIONS = join(ROOT, 'prisma', 'migrations');

/** Applies the committed migrations to a database file with the real Prisma CLI (`prisma migrate deploy`). */
export function migrateDatabase(databaseUrl: string): void {
  try {
    execFileSync(join(ROOT, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
      stdio: 'pipe',
    });
  } catch (error) {
    const output = `${(error as { stdout?: Buffer }).stdout ?? ''}${(error as { stderr?: Buffer }).stderr ?? ''}`;
    throw new MigrationError(cliProblem(output));
  }
}

/** The committed migrations the database has not applied yet (all of them for a new file). */
export function pendingMigrations(databaseUrl: string): string[] {
  const committed = readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const file = databaseUrl.slice('file:'.length);
  if (!existsSync(file)) return committed;
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return committed;
    const applied = new Set(
      (db.prepare('SELECT migration_name AS name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL').all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    return committed.filter((name) => !applied.has(name));
  } finally {
    db.close();
  }
}

/**
 * The start-up step: applies pending migrations, and does nothing (no lock, no CLI) when there are none, so a
 * second server can start on a file another one is serving. When the file is locked by another process while
 * migrations are pending, waits for it up to `waitMs`, then fails with a message naming the file.
 */
export async function migrateIfPending(databaseUrl: string, waitMs: number, log: (message: string) => void): Promise<string[]> {
  const file = databaseUrl.slice('file:'.length);
  const deadline = Date.now() + waitMs;
  let pending: string[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      pending = pendingMigrations(databaseUrl);
      if (pending.length === 0) return [];
      migrateDatabase(databaseUrl);
      return pending;
    } catch (error) {
      const locked = /locked|busy|SocketTimeout/i.test((error as Error).message);
      if (!locked) throw error;
      if (Date.now() >= deadline) {
        throw new MigrationError(
          `${pending.length} migration(s) are pending but ${file} is locked by another process (a server still running an ` +
            'older release?); stop it, or start this one again once it is free',
        );
      }
      if (attempt === 1) log(`waiting for ${file}: another process holds its lock, and ${pending.length} migration(s) are pending`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The lines of the CLI's output that say what went wrong (not its banner or its notes about the config file). */
function cliProblem(output: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^Loaded Prisma config|^Prisma schema loaded|^Datasource|url will NOT be used|^warn/i.test(line));
  return lines.join('\n') || 'prisma migrate deploy failed';
}
