import { InvalidFieldError } from '../common/errors/domain-errors';
import type { EpisodeCursor } from './audit-scope';

/**
 * Opaque to clients: base64url of the last item's creation time and what breaks ties between items created in the
 * same millisecond — an episode's serial (its rowid, unique across tenants), a run's id.
 */
function encode(createdAt: Date, tieBreak: number | string): string {
  return Buffer.from(JSON.stringify([createdAt.toISOString(), tieBreak])).toString('base64url');
}

function decode<T>(raw: string, tieBreakOk: (value: unknown) => value is T): { createdAt: Date; tieBreak: T } {
  try {
    const [createdAt, tieBreak] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as [string, unknown];
    const date = new Date(createdAt);
    if (!tieBreakOk(tieBreak) || !isStoredTimeRange(date)) throw new Error('bad cursor');
    return { createdAt: date, tieBreak };
  } catch {
    throw new InvalidFieldError('cursor', 'cursor is not one this server issued; pass next_cursor from the previous page');
  }
}

const isSerial = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isRunId = (value: unknown): value is string => typeof value === 'string' && value.length <= 64;

export function encodeEpisodeCursor(cursor: EpisodeCursor): string {
  return encode(cursor.createdAt, cursor.serial);
}

/** An episode listing's cursor (cursors of releases before serials, which carried the id, are refused as unknown). */
export function decodeEpisodeCursor(raw: string): EpisodeCursor {
  const { createdAt, tieBreak } = decode(raw, isSerial);
  return { createdAt, serial: tieBreak };
}

export function encodeRunCursor(cursor: { createdAt: Date; id: string }): string {
  return encode(cursor.createdAt, cursor.id);
}

export function decodeRunCursor(raw: string): { createdAt: Date; id: string } {
  const { createdAt, tieBreak } = decode(raw, isRunId);
  return { createdAt, id: tieBreak };
}

/** The range of times the database holds (stored timestamps are four-digit years since 1970). */
export const EARLIEST_STORED_TIME = new Date('1970-01-01T00:00:00.000Z');
export const LATEST_STORED_TIME = new Date('9999-12-31T23:59:59.999Z');

/** Whether a date is one the database holds (stored timestamps are four-digit years since 1970). */
export function isStoredTimeRange(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !Number.isNaN(date.getTime()) && year >= 1970 && year <= 9999;
}
