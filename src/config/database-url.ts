import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/*
 * Kept free of the rest of the server: prisma.config.ts (the migration CLI) imports this file on its own.
 */

export const DEFAULT_DATABASE_URL = 'file:./data/supportdesk.db';

/** Which database serves: the embedded SQLite file (the default) or a PostgreSQL server. */
export type DatabaseKind = 'sqlite' | 'postgresql';

/** The kind of database a resolved DATABASE_URL names. */
export function databaseKindOf(url: string): DatabaseKind {
  return /^postgres(ql)?:\/\//.test(url) ? 'postgresql' : 'sqlite';
}

/**
 * Turns DATABASE_URL (or the default) into the URL the server opens: a `file:` URL made absolute, so the migration
 * CLI and the server open the same file whatever their working directory, or a PostgreSQL URL as given (its
 * `sslmode` and other parameters are pg's). Touches nothing on disk. A message never repeats a URL that may hold a
 * password.
 */
export function resolveDatabaseUrl(raw: string | undefined): string {
  const url = raw && raw.trim() !== '' ? raw.trim() : DEFAULT_DATABASE_URL;
  if (/^postgres(ql)?:/i.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error('DATABASE_URL is not a valid PostgreSQL URL (postgresql://user:password@host:5432/database)');
    }
    if (!/^postgres(ql)?:$/.test(parsed.protocol) || parsed.hostname === '' || parsed.pathname.length < 2) {
      throw new Error('DATABASE_URL must name a PostgreSQL server and database: postgresql://user:password@host:5432/database');
    }
    return url;
  }
  if (!url.startsWith('file:')) {
    throw new Error(
      `DATABASE_URL must be a SQLite file URL starting with "file:" (e.g. file:./data/supportdesk.db) or a PostgreSQL URL (postgresql://user:password@host:5432/database), got "${url.split(/[/@]/)[0]}…"`,
    );
  }
  const path = url.slice('file:'.length);
  if (path === '' || path.includes('?')) {
    throw new Error(`DATABASE_URL must name a database file with no query string, got "${url}"`);
  }
  return `file:${resolve(path)}`;
}

/**
 * Creates the database's folder (0700) and file (0600) when missing, and narrows a wider file back to 0600, so
 * episodes, keys' hashes and the chain are readable by the server's user only. SQLite gives the WAL and
 * shared-memory files the main file's permissions.
 */
export function prepareDatabaseFile(databaseUrl: string): string {
  const file = databaseUrl.slice('file:'.length);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  if (!existsSync(file)) closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (existsSync(path) && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  }
  return file;
}
