import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export const DEFAULT_DATABASE_URL = 'file:./data/supportdesk.db';

/**
 * Turns DATABASE_URL (or the default) into an absolute `file:` URL and creates its folder, so the migration
 * CLI and the server open the same file whatever their working directory.
 */
export function resolveDatabaseUrl(raw: string | undefined): string {
  const url = raw && raw.trim() !== '' ? raw.trim() : DEFAULT_DATABASE_URL;
  if (!url.startsWith('file:')) {
    throw new Error(`must be a SQLite file URL starting with "file:", got "${url}"`);
  }
  const path = url.slice('file:'.length);
  if (path === '' || path.includes('?')) {
    throw new Error(`must name a database file with no query string, got "${url}"`);
  }
  const absolute = resolve(path);
  mkdirSync(dirname(absolute), { recursive: true });
  return `file:${absolute}`;
}
