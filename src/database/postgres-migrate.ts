import { createHash, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, type ClientConfig } from 'pg';
import { PROJECT_ROOT as ROOT } from '../common/project-root';
import { MigrationError } from './migration-error';

/** PostgreSQL's migration history (prisma/postgresql/schema.prisma's; SQLite's is prisma/migrations). */
export const POSTGRES_MIGRATIONS = join(ROOT, 'prisma', 'postgresql', 'migrations');

/**
 * The advisory lock `prisma migrate deploy` takes on PostgreSQL: taking the same one keeps this runner and Prisma's
 * from ever migrating one database at once, and two starting servers from doing so.
 */
const PRISMA_MIGRATION_LOCK = 72707369;

/** Prisma's own bookkeeping table, exactly as its schema engine creates it on PostgreSQL. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  /** Prisma's checksum: the SHA-256 of the file's bytes, in hex. */
  checksum: string;
}

/** The committed migrations of a history folder, in order (their names start with a timestamp). */
export function migrationFiles(folder: string = POSTGRES_MIGRATIONS): MigrationFile[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(folder, name, 'migration.sql'));
      return { name, sql: bytes.toString('utf8'), checksum: createHash('sha256').update(bytes).digest('hex') };
    });
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * What a database's history says of the committed files: those still to apply, or the reason not to touch it. An
 * applied file that changed since, a migration this release does not have (a newer release migrated the database)
 * and a migration that failed half-way (left by `prisma migrate deploy`, which records failures) are all refused:
 * applying more on top of any of them would leave a schema nobody wrote.
 */
export function pendingOf(files: MigrationFile[], applied: AppliedRow[]): MigrationFile[] {
  const byName = new Map(files.map((file) => [file.name, file]));
  for (const row of applied) {
    if (row.rolled_back_at) continue;
    if (!row.finished_at) {
      throw new MigrationError(`migration ${row.migration_name} failed part-way in an earlier attempt; repair the database, then mark it rolled back (prisma migrate resolve)`);
    }
    const file = byName.get(row.migration_name);
    if (!file) {
      throw new MigrationError(`the database has migration ${row.migration_name}, which this release does not have: it was migrated by a newer release; run that release (or a newer one)`);
    }
    if (file.checksum !== row.checksum) {
      throw new MigrationError(`migration ${row.migration_name} was changed after it was applied to this database; restore the committed file (a change needs a new migration)`);
    }
  }
  const done = new Set(applied.filter((row) => row.finished_at && !row.rolled_back_at).map((row) => row.migration_name));
  return files.filter((file) => !done.has(file.name));
}

/**
 * Applies the committed PostgreSQL migrations that `connection`'s database lacks, in order, each with its record in
 * `_prisma_migrations` in one transaction (PostgreSQL's DDL is transactional: a migration that fails leaves nothing
 * behind), under Prisma's advisory lock (a second server starting meanwhile waits, then finds nothing to do). The
 * records carry Prisma's checksums, so `prisma migrate deploy` can take the history over once it works through the
 * adapter (prisma/prisma#27403: its Wasm schema engine cannot read PostgreSQL's `name` columns today). Returns the
 * names applied.
 */
export async function migratePostgres(connection: ClientConfig, files: MigrationFile[] = migrationFiles()): Promise<string[]> {
  const client = new Client(connection);
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATION_LOCK]);
    try {
      await client.query(CREATE_MIGRATIONS_TABLE);
      const applied = await client.query<AppliedRow>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
      const pending = pendingOf(files, applied.rows);
      for (const file of pending) await applyOne(client, file);
      return pending.map((file) => file.name);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATION_LOCK]);
    }
  } finally {
    await client.end();
  }
}

/**
 * The start-up step on PostgreSQL: waits up to `waitMs` for the server to accept connections (a database started
 * beside the server in a compose file may come up later), saying once that it waits and for what, then applies what
 * is pending (migratePostgres). Fails with a message naming the server (never its password) when it never answers.
 */
export async function migratePostgresWhenReachable(url: string, waitMs: number, log: (message: string) => void): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  const where = serverOf(url);
  for (let attempt = 1; ; attempt++) {
    try {
      return await migratePostgres({ connectionString: url, connectionTimeoutMillis: Math.max(1000, Math.min(10_000, waitMs)) });
    } catch (error) {
      if (error instanceof MigrationError || !unreachable(error)) throw error;
      const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      if (Date.now() >= deadline) {
        throw new MigrationError(`PostgreSQL at ${where} did not accept connections within ${Math.round(waitMs / 1000)} s (${reason}); is it running, and is DATABASE_URL right?`);
      }
      if (attempt === 1) log(`waiting for PostgreSQL at ${where} (${reason}); giving up after ${Math.round(waitMs / 1000)} s (DATABASE_WAIT_MS)`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** An error that means the server is not (yet) there, as opposed to one it answered with (a bad password, no such database). */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  // 57P03: the server is starting up; the rest are the socket's.
  return ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH', '57P03'].includes(code) || /timeout|terminated unexpectedly/i.test((error as Error).message ?? '');
}

/** host:port/database of a PostgreSQL URL, for messages. */
export function serverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

async function applyOne(client: Client, file: MigrationFile): Promise<void> {
  const startedAt = new Date();
  await client.query('BEGIN');
  try {
    // No parameters: the simple query protocol runs the file's statements one after another.
    await client.query(file.sql);
    await client.query(
      `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, $4, 1)`,
      [randomUUID(), file.checksum, file.name, startedAt],
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw new MigrationError(`migration ${file.name} failed and was rolled back: ${(error as Error).message}`);
  }
}
