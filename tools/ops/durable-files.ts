import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/*
 * Files that appear whole or not at all: written under a temporary name in the folder they end up in, synced, then
 * renamed over the final name (a rename within one folder is atomic), and the folder synced so the rename survives
 * a power loss too.
 */

/** A name beside `path`, hidden, that no other run uses. */
export function temporaryBeside(path: string, purpose: string): string {
  return join(dirname(path), `.${basename(path)}.${purpose}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** Syncs a file's data, or a folder's entries (a rename in it), to disk. */
export function syncToDisk(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Syncs `temporary` and renames it over `path`. */
export function moveIntoPlace(temporary: string, path: string): void {
  syncToDisk(temporary);
  renameSync(temporary, path);
  syncToDisk(dirname(path));
}

/** Writes `text` to `path` through a temporary file, readable by this user only. */
export function writeFileAtomically(path: string, text: string): void {
  const temporary = temporaryBeside(path, 'partial');
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
    moveIntoPlace(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** A SQLite file with the companions its connections make beside it (journal, WAL, shared memory). */
export function sqliteFileSet(path: string): string[] {
  return [path, `${path}-journal`, `${path}-wal`, `${path}-shm`];
}

/** Removes a SQLite file and its companions, if present. */
export function removeSqliteFile(path: string): void {
  for (const file of sqliteFileSet(path)) rmSync(file, { force: true });
}
