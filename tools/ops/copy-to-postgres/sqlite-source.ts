import BetterSqlite3 from 'better-sqlite3';
import { OperationRefused } from '../operation-refused';
import { quoted } from './quoted-name';

/** Tables of SQLite's own, and Prisma's history, which the target keeps for itself: never copied. */
const NOT_DATA = /^(sqlite_|_prisma_migrations$)/;

/**
 * The SQLite database being copied, read in one transaction that holds the file's exclusive lock from the first
 * check to the last row: every table is read at the same moment, and a server that starts on the file meanwhile
 * cannot open it (its start fails, loudly) rather than write steps the copy would never see. This is the lock
 * database-in-use.ts tests for, kept instead of released. The tool writes nothing; closing the connection may fold
 * a leftover WAL into the file, as any server's stop does.
 */
export class SqliteSource {
  private constructor(
    readonly file: string,
    readonly db: BetterSqlite3.Database,
  ) {}

  static open(file: string): SqliteSource {
    let db: BetterSqlite3.Database;
    try {
      db = new BetterSqlite3(file, { fileMustExist: true, timeout: 0 });
    } catch (error) {
      if (isBusy(error)) throw inUse(file);
      throw new OperationRefused(`cannot open ${file}: ${(error as Error).message}`);
    }
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
    } catch (error) {
      db.close();
      if (isBusy(error)) throw inUse(file);
      throw new OperationRefused(`cannot read ${file}: ${(error as Error).message}`);
    }
    return new SqliteSource(file, db);
  }

  /** The tables holding data, by name. */
  tables(): string[] {
    const rows = this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[];
    return rows.map((row) => row.name).filter((name) => !NOT_DATA.test(name));
  }

  columns(table: string): string[] {
    return (this.db.pragma(`table_info(${quoted(table)})`) as { name: string }[]).map((column) => column.name);
  }

  count(table: string): number {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM ${quoted(table)}`).get() as { n: number }).n;
  }

  /**
   * The table's rows as arrays of `columns`, one at a time (better-sqlite3 steps the statement as they are taken),
   * so a table of a million rows is never in memory at once. Nothing else may run on the connection until the
   * iteration ends.
   */
  rows(table: string, columns: string[]): IterableIterator<unknown[]> {
    return this.db
      .prepare(`SELECT ${columns.map(quoted).join(', ')} FROM ${quoted(table)}`)
      .raw(true)
      .iterate() as IterableIterator<unknown[]>;
  }

  /**
   * The highest value an AUTOINCREMENT key of the table was ever given (sqlite_sequence), 0 if none: the target's
   * counter continues after it, so a serial freed by a purge is never handed out again, as on SQLite.
   */
  autoincrementHigh(table: string): number {
    const known = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'").get();
    if (!known) return 0;
    return (this.db.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get(table) as { seq: number } | undefined)?.seq ?? 0;
  }

  /** Ends the read and releases the lock. */
  close(): void {
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } finally {
      this.db.close();
    }
  }
}

function inUse(file: string): OperationRefused {
  return new OperationRefused(`${file} is open in another process (a server still running?): stop it, then copy; nothing was changed`);
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: string }).code ?? '';
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}
