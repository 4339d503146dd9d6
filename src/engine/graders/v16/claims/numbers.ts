import { wordTable } from './word-table';
/**
 * Numbers as agents write them: digits ("348", "3,000", "348.00", European "348,00") or words ("five",
 * "seventy-two", "three hundred and forty-eight"). Only cardinals up to the thousands; nothing larger is a
 * support-reply figure.
 */

const UNITS = wordTable<number>({
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
});
const TENS = wordTable<number>({
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
});

/** A digit token as a number, or null. */
export function digitValue(token: string): number | null {
  // Every form below starts with a digit; most tokens do not, and are turned away before any pattern is tried.
  const first = token.charCodeAt(0);
  if (!(first >= 48 && first <= 57)) return null;
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(token)) return Number(token.replace(/,/g, ''));
  if (/^\d+(\.\d+)?$/.test(token)) return Number(token);
  if (/^\d+,\d{2}$/.test(token)) return Number(token.replace(',', '.'));
  return null;
}

function smallWord(token: string): number | null {
  // Number words (and the names `in` also finds on every object, "constructor", "__proto__") start with a letter or
  // "_": anything else is turned away before the lookups, as it would be by them.
  const first = token.charCodeAt(0);
  if (!((first >= 97 && first <= 122) || first === 95)) return null;
  if (token in UNITS) return UNITS[token];
  if (token in TENS) return TENS[token];
  const m = token.includes('-') ? /^([a-z]+)-([a-z]+)$/.exec(token) : null;
  if (m && m[1] in TENS && m[2] in UNITS && UNITS[m[2]] > 0 && UNITS[m[2]] < 10) return TENS[m[1]] + UNITS[m[2]];
  return null;
}

export interface ParsedNumber {
  value: number;
  /** Index of the token after the number. */
  next: number;
}

/** Reads a number, in digits or words, starting at tokens[i]. */
export function readNumber(tokens: string[], i: number): ParsedNumber | null {
  const t = tokens[i];
  if (t === undefined) return null;
  const d = digitValue(t);
  if (d !== null) return { value: d, next: i + 1 };
  const first = smallWord(t) ?? (t === 'a' && tokens[i + 1] === 'hundred' ? 1 : null);
  if (first === null) return null;
  let total = 0;
  let current = first;
  let j = i + 1;
  for (;;) {
    if (tokens[j] === 'hundred') {
      current *= 100;
      j++;
    } else if (tokens[j] === 'thousand') {
      total += current * 1000;
      current = 0;
      j++;
    } else {
      const skip = tokens[j] === 'and' ? 1 : 0;
      const w = smallWord(tokens[j + skip] ?? '');
      if (w !== null && current % 100 === 0 && (current > 0 || total > 0)) {
        current += w;
        j += skip + 1;
      } else break;
    }
  }
  return { value: total + current, next: j };
}
