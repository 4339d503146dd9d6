import { InvalidFieldError } from '../common/errors/domain-errors';
import type { EpisodeCursor } from './audit-scope';

/** Opaque to clients: base64url of the last item's creation time and id. */
export function encodeCursor(cursor: EpisodeCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.id])).toString('base64url');
}

export function decodeCursor(raw: string): EpisodeCursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as [string, string];
    const date = new Date(createdAt);
    if (typeof id !== 'string' || id.length > 64 || !isStoredTimeRange(date)) throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw new InvalidFieldError('cursor', 'cursor is not one this server issued; pass next_cursor from the previous page');
  }
}

/** The range of times the database holds (stored timestamps are four-digit years since 1970). */
export const EARLIEST_STORED_TIME = new Date('1970-01-01T00:00:00.000Z');
export const LATEST_STORED_TIME = new Date('9999-12-31T23:59:59.999Z');

/** Whether a date is one the database holds (stored timestamps are four-digit years since 1970). */
export function isStoredTimeRange(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1970 && year <= 9999;
}
