import type { Span } from './mentions';
import { wordTable } from './word-table';

/**
 * Calendar dates resolved against the task's clock: "27 November", "27th of November", "Nov 27th", "27/11",
 * "27.11.", "2026-11-27", "Friday the 27th", "Fri 27 Nov", "the 27th", "tomorrow", "today", "next business
 * day", "on Friday" (the next Friday after the clock). A missing year or month is the one that puts the date
 * nearest the clock, as a reader would take it. Times of day are not dates and are ignored.
 */

const MONTHS = wordTable<number>({
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6, jul: 7,
  july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12,
  december: 12,
});
const WEEKDAYS = wordTable<number>({
  sun: 0, sunday: 0, mon: 1, monday: 1, tue: 2, tues: 2, tuesday: 2, wed: 3, wednesday: 3, thu: 4, thur: 4,
  thurs: 4, thursday: 4, fri: 5, friday: 5, sat: 6, saturday: 6,
});

const DAY_MS = 86_400_000;

/** The clock's own calendar day, in the clock's offset: "2026-11-26T10:00:00+00:00" is 26 November. */
/** Parts of the day that "this" makes today's: "this morning", "this evening". */
const PARTS_OF_DAY = new Set(['morning', 'afternoon', 'evening']);

export function clockDay(clock: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(clock);
  if (!m) throw new Error(`clock "${clock}" is not an ISO timestamp`);
  return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

function iso(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function valid(y: number, m: number, d: number): number | null {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const ms = Date.UTC(y, m - 1, d);
  return new Date(ms).getUTCDate() === d ? ms : null;
}

/** Of the candidate dates, the one nearest the clock (ties go forward: replies promise, they rarely recall). */
function nearest(candidates: (number | null)[], today: number): number | null {
  let best: number | null = null;
  for (const c of candidates) {
    if (c === null) continue;
    if (best === null || Math.abs(c - today) < Math.abs(best - today) || (Math.abs(c - today) === Math.abs(best - today) && c > best)) best = c;
  }
  return best;
}

function withYear(month: number, day: number, year: number | null, today: number): number | null {
  if (year !== null) return valid(year, month, day);
  const y = new Date(today).getUTCFullYear();
  return nearest([valid(y - 1, month, day), valid(y, month, day), valid(y + 1, month, day)], today);
}

/** A day of the month with no month: the month that puts it nearest the clock (and on `weekday` if given). */
function dayOnly(day: number, weekday: number | null, today: number): number | null {
  const t = new Date(today);
  const candidates: number[] = [];
  for (let k = -1; k <= 2; k++) {
    const ms = valid(t.getUTCFullYear(), t.getUTCMonth() + 1 + k, day) ?? validRolled(t, k, day);
    if (ms !== null && (weekday === null || new Date(ms).getUTCDay() === weekday)) candidates.push(ms);
  }
  return nearest(candidates, today) ?? (weekday !== null ? dayOnly(day, null, today) : null);
}

function validRolled(t: Date, k: number, day: number): number | null {
  const first = Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + k, 1);
  const f = new Date(first);
  return valid(f.getUTCFullYear(), f.getUTCMonth() + 1, day);
}

/** (Patterns asked of every token are made once: a literal in a function is a new object at each call.) */
const DAY_NUMBER = /^(\d{1,2})(st|nd|rd|th)?$/;

function dayNumber(token: string | undefined, needOrdinal = false): number | null {
  const m = DAY_NUMBER.exec(token ?? '');
  if (!m || (needOrdinal && !m[2])) return null;
  const d = Number(m[1]);
  return d >= 1 && d <= 31 ? d : null;
}

function yearAt(token: string | undefined): number | null {
  return /^(19|20)\d{2}$/.test(token ?? '') ? Number(token) : null;
}

/** "27 November [2026]", "27th of Nov" at i: [month, day, year, next]. */
function dayMonth(tokens: string[], i: number): [number, number, number | null, number] | null {
  const d = dayNumber(tokens[i]);
  if (d === null) return null;
  let j = i + 1;
  if (tokens[j] === 'of') j++;
  const month = MONTHS[tokens[j]];
  if (!month) return null;
  j++;
  if (tokens[j] === '.') j++;
  const y = yearAt(tokens[j]);
  return [month, d, y, y === null ? j : j + 1];
}

/** "November 27[th][, 2026]" at i. */
function monthDay(tokens: string[], i: number): [number, number, number | null, number] | null {
  const month = MONTHS[tokens[i]];
  if (!month) return null;
  let j = i + 1;
  if (tokens[j] === '.') j++;
  const d = dayNumber(tokens[j]);
  if (d === null) return null;
  j++;
  const k = tokens[j] === ',' ? j + 1 : j;
  const y = yearAt(tokens[k]);
  return [month, d, y, y === null ? j : k + 1];
}

/** "27/11", "27/11/2026", "27.11", "27.11.2026" (day first, as in the UK; month first only when it must be). */
const NUMERIC_DATE = /^(\d{1,2})[/.](\d{1,2})(?:[/.](\d{2}|\d{4}))?$/;

function numeric(token: string): [number, number, number | null] | null {
  const m = NUMERIC_DATE.exec(token);
  if (!m) return null;
  let [a, b] = [Number(m[1]), Number(m[2])];
  if (b > 12 && a <= 12) [a, b] = [b, a];
  const y = m[3] ? (m[3].length === 2 ? 2000 + Number(m[3]) : Number(m[3])) : null;
  return b >= 1 && b <= 12 && a >= 1 && a <= 31 ? [b, a, y] : null;
}

/** The last clock read: a reply's sentences are all read against one clock. */
let lastClock: { clock: string; day: number } | null = null;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const HYPHENED_DATE = /^(\d{1,2})-([a-z]{3,9})-(\d{2}|\d{4})$/;

export function findDates(tokens: string[], taken: boolean[], clock: string): Span[] {
  if (lastClock?.clock !== clock) lastClock = { clock, day: clockDay(clock) };
  const today = lastClock.day;
  const out: Span[] = [];
  const push = (ms: number | null, start: number, end: number) => {
    // "2027-02-08 (Monday)", "8 February (Mon)": the weekday in brackets names the same day, and is part of the date.
    if (tokens[end] === '(' && (tokens[end + 1] ?? '') in WEEKDAYS && tokens[end + 2] === ')') end += 3;
    if (ms !== null) out.push({ value: { kind: 'date', date: iso(ms) }, start, end });
    for (let k = start; k < end; k++) taken[k] = true;
  };
  for (let i = 0; i < tokens.length; i++) {
    if (taken[i]) continue;
    const t = tokens[i];
    if (ISO_DATE.test(t)) {
      const [y, m, d] = t.split('-').map(Number);
      push(valid(y, m, d), i, i + 1);
      continue;
    }
    // "11-Dec-2026", "3-feb-26": a day, a month's name and a year joined by hyphens.
    const hyphened = HYPHENED_DATE.exec(t);
    if (hyphened && MONTHS[hyphened[2]]) {
      const y = hyphened[3].length === 2 ? 2000 + Number(hyphened[3]) : Number(hyphened[3]);
      push(valid(y, MONTHS[hyphened[2]]!, Number(hyphened[1])), i, i + 1);
      continue;
    }
    // "the day after tomorrow" is one date, not tomorrow's.
    if (t === 'day' && tokens[i + 1] === 'after' && tokens[i + 2] === 'tomorrow') { push(today + 2 * DAY_MS, i, i + 3); i += 2; continue; }
    if (t === 'tomorrow') { push(today + DAY_MS, i, i + 1); continue; }
    if (t === 'today' || t === 'tonight') { push(today, i, i + 1); continue; }
    // ("at 07:28 UTC this morning", "yesterday evening": the day the ticket came in, and the one before.)
    if (t === 'this' && PARTS_OF_DAY.has(tokens[i + 1] ?? '')) { push(today, i, i + 2); i += 1; continue; }
    if (t === 'yesterday') { push(today - DAY_MS, i, i + 1); continue; }
    if (t === 'next' && (tokens[i + 1] === 'business' || tokens[i + 1] === 'working') && tokens[i + 2] === 'day') {
      let ms = today + DAY_MS;
      while ([0, 6].includes(new Date(ms).getUTCDay())) ms += DAY_MS;
      push(ms, i, i + 3);
      continue;
    }
    // A weekday, possibly followed by the date it names: "Friday 27 November", "Fri, 27/11", "Friday the 27th".
    if (t in WEEKDAYS && !(t === 'sun' || t === 'sat' || t === 'wed')) {
      // "Monday to Friday", "Mon-Fri": a span of the week, not a date.
      const inRange = (['to', '-', 'through', 'till', 'until'].includes(tokens[i - 1]) && (tokens[i - 2] ?? '') in WEEKDAYS) ||
        (['to', '-', 'through', 'till', 'until'].includes(tokens[i + 1]) && (tokens[i + 2] ?? '') in WEEKDAYS);
      if (inRange) continue;
      const weekday = WEEKDAYS[t];
      let j = i + 1;
      if (tokens[j] === '.' || tokens[j] === ',') j++;
      if (tokens[j] === '(') j++;
      if (tokens[j] === 'the') j++;
      const full = dayMonth(tokens, j) ?? monthDay(tokens, j);
      if (full) { push(withYear(full[0], full[1], full[2], today), i, full[3]); i = full[3] - 1; continue; }
      const num = numeric(tokens[j] ?? '');
      if (num) { push(withYear(num[0], num[1], num[2], today), i, j + 1); i = j; continue; }
      const d = dayNumber(tokens[j]);
      if (d !== null) {
        push(dayOnly(d, weekday, today), i, j + 1);
        i = j;
        continue;
      }
      let ms = today + DAY_MS;
      while (new Date(ms).getUTCDay() !== weekday) ms += DAY_MS;
      push(ms, i, i + 1);
      continue;
    }
    const dm = dayMonth(tokens, i) ?? monthDay(tokens, i);
    if (dm && !(tokens[i] === 'may' && dayNumber(tokens[i + 1]) === null)) {
      push(withYear(dm[0], dm[1], dm[2], today), i, dm[3]);
      i = dm[3] - 1;
      continue;
    }
    const num = numeric(t);
    // "27.11." or "27.11.2026", not "clause 4.2": a dotted date needs two-digit parts, a year or its own stop.
    const dottedOk = !t.includes('.') || /^\d{2}\.\d{2}/.test(t) || /^\d{1,2}\.\d{1,2}\.\d{2,4}$/.test(t) || tokens[i + 1] === '.';
    if (num && tokens[i - 1] !== '$' && dottedOk) {
      push(withYear(num[0], num[1], num[2], today), i, i + 1);
      continue;
    }
    // A day of the month alone must be an ordinal: "the 27th", "on the 27th or 30th".
    const ordinal = dayNumber(t, true);
    if (ordinal !== null) push(dayOnly(ordinal, null, today), i, i + 1);
  }
  return out;
}
