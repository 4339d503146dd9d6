import { devNull } from 'node:os';
import { runTool, toolFailed } from './postgres-client-tools';

/** What pg_restore reads in a dump: its table of contents, and how many tables' data it carries. */
export interface DumpArchive {
  /** Entries of the table of contents (tables, indexes, triggers, functions, each table's data…). */
  entries: number;
  /** Of those, tables' data. */
  tablesWithData: number;
}

/**
 * Checks a pg_dump archive the way quick_check checks a SQLite copy: pg_restore reads its table of contents
 * (`--list`), then every data block, decompressed and turned into the SQL a restore would run, to nowhere. A dump
 * cut short, or a block that does not decompress, fails here, before the backup gets its name. Throws otherwise.
 */
export async function checkDumpArchive(file: string): Promise<DumpArchive> {
  const list = await runTool('pg_restore', ['--list', file]);
  if (list.code !== 0) throw toolFailed('pg_restore', `reading the table of contents of ${file}`, list);
  const entries = list.stdout.split('\n').filter((line) => line.trim() !== '' && !line.startsWith(';'));
  const read = await runTool('pg_restore', [`--file=${devNull}`, file]);
  if (read.code !== 0) throw toolFailed('pg_restore', `reading the data of ${file}`, read);
  return { entries: entries.length, tablesWithData: entries.filter((line) => / TABLE DATA /.test(line)).length };
}

/** Why pg_restore cannot read a file's table of contents (a SQLite backup, a file cut short), or null when it can. */
export async function unreadableDumpReason(file: string): Promise<string | null> {
  const list = await runTool('pg_restore', ['--list', file]);
  return list.code === 0 ? null : list.stderr.split('\n').slice(-2).join('; ') || `pg_restore exited with code ${list.code}`;
}
