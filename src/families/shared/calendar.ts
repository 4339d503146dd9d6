/*
 * Calendar words as every family writes them. Dates are UTC milliseconds (a family's own calendar decides what a
 * day is); nothing here reads a clock or a locale, so every machine writes the same words.
 */

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;
export const MINUTE_MS = 60_000;

export const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
export const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** "3 November". */
export function dayMonth(at: number): string {
  const d = new Date(at);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/** "Friday 27 November". */
export function weekdayDayMonth(at: number): string {
  return `${WEEKDAYS[new Date(at).getUTCDay()]} ${dayMonth(at)}`;
}

/** "Saturday 28 November 2026". */
export function longDate(at: number): string {
  return `${weekdayDayMonth(at)} ${new Date(at).getUTCFullYear()}`;
}

/** "3rd", "21st", "12th". */
export function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[day % 10] ?? 'th'}`;
}
