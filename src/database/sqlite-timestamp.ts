/**
 * A DateTime as Prisma stores it in SQLite: ISO-8601 text with an explicit UTC offset
 * ("2026-11-29T13:03:49.714+00:00"), so text order is time order. Statements that write or compare timestamps
 * outside Prisma use exactly this form.
 */
export function sqliteTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}
