import { findDates } from './dates';
import { findDurations } from './durations';
import type { MentionValue } from './mentions';
import { findMoney } from './money';
import { cleanText, tokenize } from './text';

const CLOCK = '2026-11-26T10:00:00+00:00'; // a Thursday

function values(text: string): MentionValue[] {
  const tokens = tokenize(cleanText(text));
  const taken = tokens.map(() => false);
  const money = findMoney(tokens, taken);
  for (const m of money) for (let k = m.start; k < m.end; k++) taken[k] = true;
  return [...money, ...findDates(tokens, taken, CLOCK), ...findDurations(tokens, taken)].map((m) => m.value);
}

const usd = (amount: number) => ({ kind: 'money', amount, currency: 'USD' });

describe('money', () => {
  it.each([
    '$348', '$348.00', 'US$348.00', 'USD 348', '348 USD', '348 dollars', '348.00 US dollars', '$ 348', 'US$ 348',
    '$348.00 USD', 'three hundred and forty-eight dollars', '3,480 USD is not it but $348 is',
  ])('reads %s as $348', (text) => {
    expect(values(text)).toContainEqual(usd(348));
  });

  it('never reads $348 inside $3480 or $348.50', () => {
    expect(values('$3480 and $348.50')).toEqual([usd(3480), usd(348.5)]);
  });

  it('needs a currency: a bare number or an invoice id is not money', () => {
    expect(values('invoice INV-88214, 348 seats, Visa 4417')).toEqual([]);
  });

  it('reads other currencies', () => {
    expect(values('€20 and £15.50 and 10 euros')).toEqual([
      { kind: 'money', amount: 20, currency: 'EUR' },
      { kind: 'money', amount: 15.5, currency: 'GBP' },
      { kind: 'money', amount: 10, currency: 'EUR' },
    ]);
  });
});

const bd = (min: number, max = min) => ({ kind: 'duration', min, max, unit: 'business_day' });

describe('durations', () => {
  it.each([
    '5-7 business days', '5–7 business days', '5 - 7 business days', '5 to 7 business days', 'between 5 and 7 business days',
    'five to seven working days', '5-7 days (business days)', 'between five and seven business days', 'a 5-7 business day window',
  ])('reads %s as 5-7 business days', (text) => {
    expect(values(text)).toContainEqual(bd(5, 7));
  });

  it('reads the explicit range inside "up to 7 business days (usually 5-7)"', () => {
    expect(values('up to 7 business days (usually 5-7)')).toEqual([{ ...bd(7), bound: 'up_to' }, bd(5, 7)]);
  });

  it('gives one mention per item of a list sharing a unit', () => {
    expect(values('within 3, 5-7 or 10 business days')).toEqual([{ ...bd(3), bound: 'up_to' }, bd(5, 7), bd(10)]);
    expect(values('the last 24, 48 or 72 hours').map((v) => v.kind === 'duration' && v.max)).toEqual([24, 48, 72]);
  });

  it('reads minutes and hours in short forms', () => {
    expect(values('within 30 minutes')).toEqual([{ kind: 'duration', min: 30, max: 30, unit: 'minute', bound: 'up_to' }]);
    expect(values('30 min')).toEqual([{ kind: 'duration', min: 30, max: 30, unit: 'minute' }]);
    expect(values('the last 72h')).toEqual([{ kind: 'duration', min: 72, max: 72, unit: 'hour' }]);
  });

  it('keeps plain days apart from business days', () => {
    expect(values('5-7 days')).toEqual([{ kind: 'duration', min: 5, max: 7, unit: 'day' }]);
  });

  it('does not make a card number part of a list', () => {
    expect(values('Visa 4417, 5-7 business days')).toEqual([bd(5, 7)]);
  });
});

const d27 = { kind: 'date', date: '2026-11-27' };

describe('dates against the clock (Thursday 26 November 2026)', () => {
  it.each([
    '27 November', '27th of November', 'Nov 27th', 'November 27', '27/11', '27.11.', '2026-11-27', 'Friday the 27th',
    'Friday 27 November', 'Fri 27 Nov', 'tomorrow', 'on Friday', 'by midday on Friday 27 November', 'on the 27th',
    'the next business day', 'friday, 27 november 2026',
  ])('reads %s as 27 November 2026', (text) => {
    expect(values(text)).toContainEqual(d27);
  });

  it('resolves "tomorrow" from the clock, not from the calendar', () => {
    const tokens = tokenize('tomorrow');
    expect(findDates(tokens, [false], '2026-11-30T10:00:00+00:00')[0].value).toEqual({ kind: 'date', date: '2026-12-01' });
  });

  it('reads each date of an alternative', () => {
    expect(values('on the 27th or 30th')).toEqual([d27, { kind: 'date', date: '2026-11-30' }]);
  });

  it('does not read a clause number, a time or a weekday range as a date', () => {
    expect(values('clause 4.2 of the agreement, before 12:00, Monday to Friday')).toEqual([]);
  });

  it('takes a next week\'s day for "on Friday" said on a Friday', () => {
    const tokens = tokenize('on Friday');
    expect(findDates(tokens, [false, false], '2026-11-27T10:00:00+00:00')[0].value).toEqual({ kind: 'date', date: '2026-12-04' });
  });
});
