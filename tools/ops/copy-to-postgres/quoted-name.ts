/** A table or column name as an SQL identifier; the same quoting on SQLite and PostgreSQL. */
export function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
