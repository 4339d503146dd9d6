import type { DurationUnit } from './claim.schema';
import type { MentionValue, Span } from './mentions';
import { readNumber } from './numbers';
import { wordTable } from './word-table';

/**
 * Spans and windows of time: "5-7 business days", "5 - 7", "5 to 7", "between 5 and 7", "five to seven working
 * days", "5-7 days (business days)", "within 30 minutes", "30 min", "72h", "72-hour". A list that shares one unit
 * ("within 3, 5-7 or 10 business days", "the last 24, 48 or 72 hours") gives one mention per item, so the slot
 * rule can see the alternatives. A bare range right after a duration inherits its unit: "up to 7 business days
 * (usually 5-7)".
 */

const UNIT_WORDS = wordTable<DurationUnit>({
  minute: 'minute', minutes: 'minute', min: 'minute', mins: 'minute',
  hour: 'hour', hours: 'hour', hr: 'hour', hrs: 'hour', h: 'hour',
  day: 'day', days: 'day',
  week: 'week', weeks: 'week',
});
/** "Business" and "working" days are the same thing to a customer. */
const BUSINESS = new Set(['business', 'working', 'work']);

/** Reads a unit at tokens[i]; returns it and the index after it. */
function readUnit(tokens: string[], i: number): [DurationUnit, number] | null {
  const t = tokens[i];
  if (t === undefined) return null;
  if (BUSINESS.has(t) && (tokens[i + 1] === 'day' || tokens[i + 1] === 'days')) return ['business_day', i + 2];
  const hyphen = /^(business|working)-days?$/.exec(t);
  if (hyphen) return ['business_day', i + 1];
  if (!(t in UNIT_WORDS)) return null;
  const unit = UNIT_WORDS[t];
  let next = i + 1;
  // "5-7 days (business days)": the parenthesis says which days.
  if (unit === 'day' && tokens[next] === '(' && BUSINESS.has(tokens[next + 1]) && /^days?$/.test(tokens[next + 2] ?? '') && tokens[next + 3] === ')') {
    return ['business_day', next + 4];
  }
  return [unit, next];
}

interface Quantity {
  min: number;
  max: number;
  start: number;
  next: number;
}

/** (Patterns asked of every token are made once: a literal in a function is a new object at each call.) */
const FIGURE_RANGE = /^(\d+)-(\d+)$/;
const WORD_RANGE = /^([a-z]+)-([a-z]+)$/;
const GLUED_UNIT = /^(\d+)-?(h|hr|hrs|hour|hours|min|mins|minute|minutes|day|days|week|weeks)$/;

/** One item: "5", "five", "5-7", "5 - 7", "5 to 7", "between 5 and 7", "72h" (unit inside, handled apart). */
function readQuantity(tokens: string[], i: number): Quantity | null {
  const t = tokens[i];
  const range = FIGURE_RANGE.exec(t ?? '');
  if (range) return { min: Number(range[1]), max: Number(range[2]), start: i, next: i + 1 };
  // "five-seven" (one token once dashes are plain hyphens), but not "twenty-five", which is one number.
  const wordRange = WORD_RANGE.exec(t ?? '');
  if (wordRange && readNumber([t], 0) === null) {
    const [a, b] = [readNumber([wordRange[1]], 0), readNumber([wordRange[2]], 0)];
    if (a && b && b.value > a.value) return { min: a.value, max: b.value, start: i, next: i + 1 };
  }
  if (t === 'between') {
    const a = readNumber(tokens, i + 1);
    if (a && tokens[a.next] === 'and') {
      const b = readNumber(tokens, a.next + 1);
      if (b) return { min: a.value, max: b.value, start: i, next: b.next };
    }
    return null;
  }
  const a = readNumber(tokens, i);
  if (!a) return null;
  // ("It's a short one - 15 minutes before it expires": a word and a figure either side of a dash are no range.)
  const mixed = tokens[a.next] === '-' && /^\d/.test(t) !== /^\d/.test(tokens[a.next + 1] ?? '');
  if ((tokens[a.next] === '-' || tokens[a.next] === 'to') && tokens[a.next + 1] !== undefined && !mixed) {
    const b = readNumber(tokens, a.next + 1);
    if (b && b.value > a.value) return { min: a.value, max: b.value, start: i, next: b.next };
  }
  return { min: a.value, max: a.value, start: i, next: a.next };
}

/** Words after which "an hour", "a day" is a length of time: "for an hour", "within a day". */
const ONE_UNIT_AFTER = new Set(['for', 'in', 'within', 'after', 'about', 'around', 'roughly', 'just', 'only', 'over', 'than', 'under']);

const CEILING_BEFORE = [['up', 'to'], ['within'], ['no', 'more', 'than'], ['at', 'most'], ['less', 'than'], ['under']];

function ceilingBefore(tokens: string[], i: number): boolean {
  return CEILING_BEFORE.some((words) => words.every((w, k) => tokens[i - words.length + k] === w));
}

function mention(q: Quantity, unit: DurationUnit, end: number, tokens: string[]): Span {
  const value: MentionValue = { kind: 'duration', min: q.min, max: q.max, unit };
  if (q.min === q.max && ceilingBefore(tokens, q.start)) value.bound = 'up_to';
  return { value, start: q.start, end };
}

export function findDurations(tokens: string[], taken: boolean[]): Span[] {
  const out: Span[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (taken[i]) continue;
    // Unit glued to the number: "72h", "30min", "72-hour", "5-day".
    const glued = GLUED_UNIT.exec(tokens[i]);
    if (glued) {
      const n = Number(glued[1]);
      out.push(mention({ min: n, max: n, start: i, next: i + 1 }, UNIT_WORDS[glued[2]], i + 1, tokens));
      continue;
    }
    // "it only works for an hour", "within a day": one unit, said with an article after a word of time.
    if ((tokens[i] === 'an' || tokens[i] === 'a') && ONE_UNIT_AFTER.has(tokens[i - 1] ?? '') && ['hour', 'day', 'week'].includes(tokens[i + 1] ?? '')) {
      out.push(mention({ min: 1, max: 1, start: i, next: i + 1 }, UNIT_WORDS[tokens[i + 1]], i + 2, tokens));
      i++;
      continue;
    }
    // A list of quantities sharing the unit that ends it.
    const items: Quantity[] = [];
    let j = i;
    for (;;) {
      if (taken[j]) break;
      const q = readQuantity(tokens, j);
      // Items of a list are small figures; "card ending 4417, 5-7 business days" is not a list of durations.
      if (!q || (items.length > 0 && q.max >= 1000) || (q.max >= 1000 && tokens[q.next] === ',')) break;
      items.push(q);
      j = q.next;
      if (tokens[j] === ',' && (tokens[j + 1] === 'or' || tokens[j + 1] === 'and')) j += 2;
      else if (tokens[j] === ',' || tokens[j] === 'or' || tokens[j] === 'and') j += 1;
      else break;
    }
    if (items.length === 0) continue;
    const last = items[items.length - 1];
    let unitAt = last.next;
    // "a further 5 business days", "5 more days": skip the intensifier between number and unit.
    if (['more', 'further', 'additional', 'extra', 'full'].includes(tokens[unitAt])) unitAt++;
    const unit = readUnit(tokens, unitAt);
    if (unit) {
      for (const q of items) out.push(mention(q, unit[0], q === last ? unit[1] : q.next, tokens));
      i = unit[1] - 1;
      continue;
    }
    // A bare range ("usually 5-7") takes the unit of a duration just before it in the sentence.
    const first = items[0];
    if (first.min < first.max && items.length === 1) {
      const previous = out[out.length - 1];
      if (previous && first.start - previous.end <= 6 && previous.value.kind === 'duration') {
        out.push(mention(first, previous.value.unit, first.next, tokens));
        i = first.next - 1;
      }
    }
  }
  return out;
}
