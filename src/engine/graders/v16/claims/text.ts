/**
 * Text clean-up and tokens. Every later step works on the same lowercase tokens, so a rule is written once
 * against words, not against the many ways a writer can type the same characters.
 */

import { readNumber } from './numbers';
import { wordTable } from './word-table';

/**
 * A reply's length as the grader reads it: code points after NFKC normalisation, which can turn one character into
 * several ("㌶" is five letters, "ﷺ" eighteen). Limits on replies count this as well as the length as written, so
 * no reply is longer to read than the limit says.
 */
export function readLength(text: string): number {
  let length = 0;
  for (const _ of text.normalize('NFKC')) length++;
  return length;
}

/** Unicode forms, dash and quote variants and Markdown emphasis differ between writers, not in meaning. */
export function cleanText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\*\*|__|`/g, '')
    .replace(/\r\n?/g, '\n')
    // Markdown tables: "| Courier | Overnight priority |" reads "Courier: Overnight priority"; rules go.
    .replace(LINE, (line) => (isTableRule(line) ? '' : line))
    .replace(/^[ \t]*\|([^|\n]+)\|([^|\n]+)\|[ \t]*$/gm, (_row, label: string, value: string) => (label.trim() ? `${label.trim()}: ${value.trim()}` : value.trim()))
    // Markdown headings: "### When you'll have it" is the line "When you'll have it".
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
    .replace(/[ \t\u00a0]+/g, ' ');
}

/** A line's text, between line terminators (what `^` and `$` delimit in a multiline pattern). */
const LINE = /[^\n\r\u2028\u2029]+/g;

/**
 * "|---|:---:|", "------": a line of only spaces, tabs, colons, pipes and dashes with three dashes in a row. (As a
 * single pattern with a quantified class on each side of the dashes it backtracked cubically on a long line of
 * dashes; this reads the line once.)
 */
function isTableRule(line: string): boolean {
  return /^[ \t:|-]+$/.test(line) && line.includes('---');
}

/**
 * One token per word, number or mark. Inner hyphens, dots, commas, colons and slashes stay inside a token when
 * letters or digits follow directly, so "5-7", "sync-prod-2", "27/11", "12:00", "348.00" and "3,000" are one
 * token each, while a sentence's full stop is its own. Underscores stay
 * inside words, so an internal code such as security_escalation is one token.
 */
const TOKEN = /[\p{L}\p{N}_]+(?:'[\p{L}]+)*(?:[-.,:/][\p{L}\p{N}_]+(?:'[\p{L}]+)*)*|[$€£]|\S/gu;

export function tokenize(text: string): string[] {
  return withSpelledFractions(withoutRepeatedNumerals(withoutInnerStops(text.toLowerCase().match(TOKEN) ?? [])));
}

/** Abbreviations that never end a sentence: "i.e." and "e.g." introduce what follows. */
const INTRODUCING = new Set(['i.e', 'e.g']);

/**
 * "revoked, i.e. 'etl-job-8'": the full stop of an abbreviation that introduces what follows is no sentence's end, and
 * it would part what it introduces from what it restates. One pass.
 */
function withoutInnerStops(tokens: string[]): string[] {
  if (!tokens.some((t) => INTRODUCING.has(t))) return tokens;
  return tokens.filter((t, i) => t !== '.' || !INTRODUCING.has(tokens[i - 1]));
}

/** Durations spelled as a fraction of an hour or a day, and what each reads as. */
const FRACTIONS: readonly (readonly [readonly string[], readonly string[]])[] = [
  [['three', 'quarters', 'of', 'an', 'hour'], ['45', 'minutes']],
  [['a', 'quarter', 'of', 'an', 'hour'], ['15', 'minutes']],
  [['quarter', 'of', 'an', 'hour'], ['15', 'minutes']],
  [['an', 'hour', 'and', 'a', 'half'], ['90', 'minutes']],
  [['half', 'an', 'hour'], ['30', 'minutes']],
  [['half', 'a', 'day'], ['12', 'hours']],
  [['a', 'day', 'and', 'a', 'half'], ['36', 'hours']],
];

const UNIT_ABBREVIATIONS = wordTable<string>({ h: 'hours', hr: 'hours', hrs: 'hours', min: 'minutes', mins: 'minutes' });

/** Whether a token may start one of the rewrites below: most replies have none, and keep their array. */
function mayRewrite(t: string, next: string | undefined): boolean {
  if (t === 'a' || t === 'an') return next === 'quarter' || next === 'hour' || next === 'day';
  return REWRITE_STARTS.has(t) || (t.length > 2 && t.includes('/'));
}
const REWRITE_STARTS = new Set(['h', 'hr', 'hrs', 'min', 'mins', 'half', 'quarter', 'three']);

/**
 * "half an hour", "a quarter of an hour": a duration in words that no number reader sees is read as its figure.
 * "48 h" is "48 hours". "spam/junk": two words joined by a slash are alternatives, read "spam or junk" ("and/or" is "or"). One pass.
 */
function withSpelledFractions(tokens: string[]): string[] {
  if (!tokens.some((t, i) => mayRewrite(t, tokens[i + 1]))) return tokens;
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.includes('/') && /^[a-z]+\/[a-z]+$/.test(t)) {
      const [a, b] = t.split('/');
      if (a === 'and' && b === 'or') out.push('or');
      else out.push(a, 'or', b);
      continue;
    }
    // "48 h", "30 mins": a unit's abbreviation after a number is the unit.
    if (UNIT_ABBREVIATIONS[t] && /^\d+$/.test(tokens[i - 1] ?? '')) {
      out.push(UNIT_ABBREVIATIONS[t]);
      continue;
    }
    if (t === 'half' || t === 'a' || t === 'an' || t === 'quarter' || t === 'three') {
      const fraction = fractionAt(tokens, i);
      if (fraction) {
        out.push(...fraction[1]);
        i += fraction[0].length - 1;
        continue;
      }
    }
    out.push(t);
  }
  return out;
}

/** The first fraction spelled at tokens[i] (a plain loop: a closure over the position made a context for every token). */
function fractionAt(tokens: string[], i: number): (typeof FRACTIONS)[number] | undefined {
  for (const fraction of FRACTIONS) {
    const words = fraction[0];
    let k = 0;
    while (k < words.length && tokens[i + k] === words[k]) k++;
    if (k === words.length) return fraction;
  }
  return undefined;
}

/**
 * "ten (10) business days", "fourteen (14)": a number in words with its figure repeated in brackets, as formal
 * letters write it, is one number; the bracketed figure goes. One pass.
 */
function withoutRepeatedNumerals(tokens: string[]): string[] {
  if (!tokens.includes('(')) return tokens;
  const kept: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    kept.push(tokens[i]);
    if (tokens[i + 1] !== '(' || tokens[i + 3] !== ')' || !/^\d{1,4}$/.test(tokens[i + 2] ?? '')) continue;
    // The words of the number end at i: read back at most four tokens ("twenty-one", "one hundred and five").
    for (let start = Math.max(0, i - 4); start <= i; start++) {
      const read = /^\d/.test(tokens[start]) ? null : readNumber(tokens, start);
      if (read && read.next === i + 1 && read.value === Number(tokens[i + 2])) {
        i += 3;
        break;
      }
    }
  }
  return kept;
}

/** `token` is `word` + "'s" ("account's"), compared in place: phrase scans ask this of every token. */
export function isPossessiveOf(token: string, word: string): boolean {
  return token.length === word.length + 2 && token.endsWith("'s") && token.startsWith(word);
}

export function isWord(token: string): boolean {
  // Most tokens are ASCII: a letter or digit there settles it without the Unicode classes.
  for (let k = 0; k < token.length; k++) {
    const c = token.charCodeAt(k);
    if (c >= 128) return /[\p{L}\p{N}]/u.test(token);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57)) return true;
  }
  return false;
}

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'incl', 'e.g', 'i.e', 'etc', 'approx', 'vs', 'mr', 'ms', 'mrs', 'dr', 'st', 'no', 'nr', 'ref', 'dept', 'jan', 'feb',
  'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur',
  'thurs', 'fri', 'sat', 'sun', 'cf', 'p.s', 'a.m', 'p.m',
]);

export interface RawSentence {
  text: string;
  paragraph: number;
  /** The sentence is a whole line that began with a bullet or list number. */
  bullet: boolean;
}

/**
 * Paragraphs (blank lines), lines, then sentences: a line break always ends a sentence, because replies put
 * greetings, list items and label lines on lines of their own; a full stop, "!" or "?" followed by a space ends
 * one unless it closes an abbreviation or a number such as "27.11.".
 */
export function splitSentences(text: string): RawSentence[] {
  const out: RawSentence[] = [];
  const paragraphs = text.split(/\n\s*\n/);
  paragraphs.forEach((paragraph, p) => {
    for (const rawLine of paragraph.split('\n')) {
      const bulletMark = /^([-*•]|\d{1,2}[.)])\s+/;
      const bullet = bulletMark.test(rawLine.trim());
      const line = rawLine.trim().replace(bulletMark, '');
      if (!line) continue;
      let start = 0;
      for (const m of boundaries(line)) {
        const lastWord = lastWordBefore(line, start, m.index);
        if (m.text === '.' && (ABBREVIATIONS.has(lastWord) || /^\d{1,2}(\.\d{1,2})?$/.test(lastWord) && lowercaseAfterSpace(line, m.index + 1))) continue;
        const end = m.index + m.text.length;
        push(line.slice(start, end));
        start = end;
      }
      push(line.slice(start));
      function push(s: string): void {
        const trimmed = s.trim();
        if (trimmed) out.push({ text: trimmed, paragraph: p, bullet });
      }
    }
  });
  return out;
}

/**
 * Where a sentence may end: a run of ".", "!" or "?", then any closing quotes or brackets, followed by a space (what
 * `/[.!?]+["')\]]*(?=\s)/g` finds, read once: as a pattern it went back over a long run of marks with no space after
 * it from every mark in the run).
 */
function* boundaries(line: string): Generator<{ index: number; text: string }> {
  let i = 0;
  while (i < line.length) {
    if (!SENTENCE_MARKS.has(line[i])) {
      i++;
      continue;
    }
    const index = i;
    while (i < line.length && SENTENCE_MARKS.has(line[i])) i++;
    while (i < line.length && CLOSERS.has(line[i])) i++;
    if (i < line.length && SPACE.test(line[i])) yield { index, text: line.slice(index, i) };
  }
}

const SENTENCE_MARKS = new Set(['.', '!', '?']);
const CLOSERS = new Set(['"', "'", ')', ']']);
/** One character of `\s` (none lies outside the Basic Multilingual Plane). */
const SPACE = /^\s$/;

/** Only abbreviations and day or month numbers are looked up, and none is longer than this. */
const LONGEST_WORD_LOOKED_UP = 8;
const WORD_CHARACTER = /^[\p{L}\p{N}.]$/u;

/**
 * The run of letters, digits and dots that ends at `end` (not before `start`), lowercased, or "" when there is none
 * or it is longer than any word looked up. It reads at most a few characters back: matching `[\p{L}\p{N}.]+$`
 * against the text before each full stop read the whole run again from each of its characters, and a run of letters
 * before many abbreviations ("no. no. no. ...") cost the square of the run for each of them.
 */
function lastWordBefore(line: string, start: number, end: number): string {
  let from = end;
  while (from > start) {
    const unit = line.charCodeAt(from - 1);
    // A letter outside the Basic Multilingual Plane is two code units.
    const width = unit >= 0xdc00 && unit <= 0xdfff && from - 2 >= start && isHighSurrogate(line.charCodeAt(from - 2)) ? 2 : 1;
    if (!WORD_CHARACTER.test(line.slice(from - width, from))) break;
    from -= width;
    if (end - from > LONGEST_WORD_LOOKED_UP) return '';
  }
  return line.slice(from, end).toLowerCase();
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

/** "27.11. and": whitespace and then a lowercase letter at `at` (what `/^\s+[a-z]/` said of the rest of the line). */
function lowercaseAfterSpace(line: string, at: number): boolean {
  const sticky = /\s+[a-z]/y;
  sticky.lastIndex = at;
  return sticky.test(line);
}
