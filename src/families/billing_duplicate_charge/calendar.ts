import { DAY_MS, dayMonth } from '../shared';

/**
 * Dates and times as the billing duplicate-charge family keeps them (YYYY-MM-DD strings). Pure arithmetic on UTC
 * calendar dates (no clock is ever read), so a seed gives the same instance on every machine and in every time zone.
 * Money and the words of a date are the shared pools' (src/families/shared).
 */

/** A calendar date as YYYY-MM-DD. */
export type IsoDate = string;

function toMs(date: IsoDate): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

function fromMs(ms: number): IsoDate {
  return new Date(ms).toISOString().slice(0, 10);
}

export function isoDate(year: number, month: number, day: number): IsoDate {
  return fromMs(Date.UTC(year, month - 1, day));
}

export function addDays(date: IsoDate, days: number): IsoDate {
  return fromMs(toMs(date) + days * DAY_MS);
}

/** The same day of the month one month earlier (days 1-28 only, so it always exists). */
export function oneMonthBefore(date: IsoDate): IsoDate {
  return isoDate(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)));
}

export function daysBetween(from: IsoDate, to: IsoDate): number {
  return Math.round((toMs(to) - toMs(from)) / DAY_MS);
}

/** "3 November", as customers and agents write a date in prose. */
export function dayMonthOf(date: IsoDate): string {
  return dayMonth(toMs(date));
}

export function sameMonth(a: IsoDate, b: IsoDate): boolean {
  return a.slice(0, 7) === b.slice(0, 7);
}

/** An event timestamp (UTC, "Z"): the date at a time of day given in seconds after midnight. */
export function timestamp(date: IsoDate, secondsOfDay: number): string {
  return new Date(toMs(date) + secondsOfDay * 1000).toISOString().replace('.000Z', 'Z');
}

/** The task clock: ISO-8601 with an explicit offset, as the task schema asks. */
export function clockAt(date: IsoDate, hour: number, minute: number): string {
  return `${date}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00+00:00`;
}
