/**
 * A DateTime as this database stores it: Unix milliseconds, an integer (the Prisma adapter's "unixepoch-ms" format,
 * database.service.ts; migration 20261203200000_integer_times converted the ISO text of earlier releases), so
 * integer order is time order. Statements that write or compare timestamps outside Prisma use exactly this form;
 * a stored time reads back with `new Date(stored)`.
 */
export function sqliteTimestamp(date: Date): number {
  return date.getTime();
}
