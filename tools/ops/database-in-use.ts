import BetterSqlite3 from 'better-sqlite3';

/**
 * Whether a process (a server) has the SQLite file open. A connection in WAL mode holds a shared lock on the file for
 * as long as it is open, so an exclusive lock is refused while one is; SQLite tracks its own connections' locks
 * within a process as well, so this also sees a server running in this process. A file that is not a database is
 * not in use by a server. Checked before a restore replaces the file; a server started after this check is the
 * operator's to prevent (docs/backup.md: stop the server first).
 */
export function databaseInUse(file: string): boolean {
  let db: BetterSqlite3.Database;
  try {
    db = new BetterSqlite3(file, { fileMustExist: true, timeout: 0 });
  } catch (error) {
    return isBusy(error);
  }
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (error) {
    return isBusy(error);
  } finally {
    db.close();
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}
