import type { Currency } from './claim.schema';
import type { Span } from './mentions';
import { digitValue, readNumber } from './numbers';
import { wordTable } from './word-table';

/**
 * Amounts with a currency: "$348", "$348.00", "US$348.00", "USD 348", "348 USD", "$348.00 USD", "348 dollars",
 * "348.00 US dollars", "$ 348", "three hundred and forty-eight dollars". A bare number is never money: the
 * currency is what makes "348" an amount rather than an invoice or a count. Whole tokens only, so "$348"
 * never reads inside "$3480" or "$348.50".
 */

const SYMBOLS = wordTable<Currency>({ $: 'USD', '€': 'EUR', '£': 'GBP' });
const CODES = wordTable<Currency>({ usd: 'USD', eur: 'EUR', gbp: 'GBP' });
const NAMES = wordTable<Currency>({
  dollar: 'USD', dollars: 'USD', euro: 'EUR', euros: 'EUR', pound: 'GBP', pounds: 'GBP',
});

/** A currency written before the number: returns the currency and the index after it. */
function prefix(tokens: string[], i: number): [Currency, number] | null {
  const t = tokens[i];
  if (t === 'us' && tokens[i + 1] === '$') return ['USD', i + 2];
  if (t in SYMBOLS) return [SYMBOLS[t], i + 1];
  if (t in CODES) return [CODES[t], i + 1];
  return null;
}

/** A currency written after the number ("USD", "dollars", "US dollars", "$" in "348,00 $"). */
function suffix(tokens: string[], i: number): [Currency, number] | null {
  const t = tokens[i];
  if (t === 'us' && (tokens[i + 1] === 'dollars' || tokens[i + 1] === 'dollar')) return ['USD', i + 2];
  if (t in CODES) return [CODES[t], i + 1];
  if (t in NAMES) return [NAMES[t], i + 1];
  if (t in SYMBOLS) return [SYMBOLS[t], i + 1];
  return null;
}

export function findMoney(tokens: string[], taken: boolean[]): Span[] {
  const out: Span[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (taken[i]) continue;
    const pre = prefix(tokens, i);
    if (pre) {
      const [currency, at] = pre;
      const amount = digitValue(tokens[at] ?? '');
      if (amount !== null) {
        let end = at + 1;
        const post = suffix(tokens, end);
        if (post && post[0] === currency && !(tokens[end] in SYMBOLS)) end = post[1];
        out.push({ value: { kind: 'money', amount, currency }, start: i, end });
        i = end - 1;
        continue;
      }
    }
    const num = readNumber(tokens, i);
    if (num) {
      const post = suffix(tokens, num.next);
      // "two $348.00 payments": a count before an amount, not "2 $" (a symbol after the number is "348,00 $").
      const countBeforeAmount = post !== null && tokens[num.next] in SYMBOLS && digitValue(tokens[num.next + 1] ?? '') !== null;
      if (post && !countBeforeAmount) {
        out.push({ value: { kind: 'money', amount: num.value, currency: post[0] }, start: i, end: post[1] });
        i = post[1] - 1;
      }
    }
  }
  return out;
}
