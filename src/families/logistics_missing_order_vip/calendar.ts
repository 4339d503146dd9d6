import { DAY_MS, MINUTE_MS, WEEKDAYS } from '../shared';

/**
 * The calendar of the logistics family: UK local time (GMT in winter, BST in summer), business days (Monday to
 * Friday, as the courier article says) and the overnight courier's cut-off. Days are UTC midnights in
 * milliseconds, so arithmetic never meets a time zone; times of day are minutes after local midnight.
 */

/** The moment the agent works the ticket: a local calendar day and time in the UK. */
export interface UkClock {
  /** Local calendar day, as the UTC midnight of that date. */
  day: number;
  /** Minutes after local midnight. */
  minutes: number;
}

export function dayOf(year: number, month: number, date: number): number {
  return Date.UTC(year, month - 1, date);
}

export function weekday(day: number): number {
  return new Date(day).getUTCDay();
}

export function isBusinessDay(day: number): boolean {
  const w = weekday(day);
  return w !== 0 && w !== 6;
}

export function nextBusinessDay(day: number): number {
  let next = day + DAY_MS;
  while (!isBusinessDay(next)) next += DAY_MS;
  return next;
}

export function addBusinessDays(day: number, count: number): number {
  let out = day;
  for (let i = 0; i < count; i++) out = nextBusinessDay(out);
  return out;
}

export function previousBusinessDay(day: number): number {
  let prev = day - DAY_MS;
  while (!isBusinessDay(prev)) prev -= DAY_MS;
  return prev;
}

/** The last Sunday of a month: British Summer Time starts on March's and ends on October's. */
function lastSunday(year: number, month: number): number {
  let day = Date.UTC(year, month, 0);
  while (weekday(day) !== 0) day -= DAY_MS;
  return day;
}

/**
 * The UK's offset from UTC in minutes on a local day, for the working hours this family draws (08:00 to 18:59): the
 * switch happens at 01:00 UTC, so the whole working day of a switch Sunday is already on the new offset.
 */
export function ukOffsetMinutes(day: number): number {
  const year = new Date(day).getUTCFullYear();
  return day >= lastSunday(year, 3) && day < lastSunday(year, 10) ? 60 : 0;
}

/** The clock as a UTC instant. */
export function clockInstant(clock: UkClock): number {
  return clock.day + (clock.minutes - ukOffsetMinutes(clock.day)) * MINUTE_MS;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function isoDate(day: number): string {
  return new Date(day).toISOString().slice(0, 10);
}

export function hhmm(minutes: number): string {
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** "2026-11-26T10:00:00+00:00": the task's clock, in UK local time with its offset. */
export function clockIso(clock: UkClock): string {
  const offset = ukOffsetMinutes(clock.day);
  return `${isoDate(clock.day)}T${hhmm(clock.minutes)}:00+${hhmm(offset)}`;
}

/** "2026-11-21T03:12:00Z": carrier events are logged in UTC. */
export function utcIso(instant: number): string {
  return `${new Date(instant).toISOString().slice(0, 16)}:00Z`;
}

export function weekdayName(day: number): string {
  return WEEKDAYS[weekday(day)];
}

/** The UK calendar day of an instant. */
export function localDay(instant: number): number {
  const utcDay = Math.floor(instant / DAY_MS) * DAY_MS;
  return Math.floor((instant + ukOffsetMinutes(utcDay) * MINUTE_MS) / DAY_MS) * DAY_MS;
}

/**
 * The overnight priority courier (courier article): booked on a business day before the cut-off, it is delivered
 * the next business day; booked at or after the cut-off, or on a weekend, it is collected the next business day
 * and delivered the business day after that.
 */
export function overnightDelivery(clock: UkClock, cutoffMinutes: number): number {
  const bookedToday = isBusinessDay(clock.day) && clock.minutes < cutoffMinutes;
  const collected = bookedToday ? clock.day : nextBusinessDay(clock.day);
  return nextBusinessDay(collected);
}
