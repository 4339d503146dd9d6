import fc from 'fast-check';
import { fullFormats } from 'ajv-formats/dist/formats';
import { codePointLength, DATE_TIME_PATTERN, parseDateTime } from './field-rules';

const ajvDateTime = (text: string) => (fullFormats['date-time'] as { validate: (s: string) => boolean }).validate(text);

describe('parseDateTime', () => {
  it.each([
    ['2026-01-31T09:30:00Z', '2026-01-31T09:30:00.000Z'],
    ['2026-01-31T10:30:00.250+01:00', '2026-01-31T09:30:00.250Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['1969-12-31T23:00:00-01:00', '1970-01-01T00:00:00.000Z'],
    ['0001-01-01T00:00:00.123456789Z', '0001-01-01T00:00:00.123Z'],
  ])('reads %s', (text, instant) => {
    expect(parseDateTime(text)?.toISOString()).toBe(instant);
  });

  it.each([
    '2026-01-31', // a date alone: in which zone?
    '2026-01-31T09:30:00', // no zone
    '2026-01-31T09:30', // no seconds
    '2026-01-31t09:30:00z',
    '2026-01-31 09:30:00Z',
    '2026-01-31T09:30:00+01',
    '2026-01-31T09:30:00+0100',
    '2026-02-29T00:00:00Z', // not a leap year
    '2026-04-31T00:00:00Z',
    '2016-12-31T23:59:60Z', // a leap second: no JavaScript Date holds it
    '2026-01-31T24:00:00Z',
    '+002026-01-31T09:30:00Z',
    '2026-W05-6',
    '',
  ])('refuses %p', (text) => {
    expect(parseDateTime(text)).toBeNull();
  });

  it('accepts exactly what `format: date-time` and the documented pattern accept together', () => {
    let accepted = 0;
    // Each part one past its range at most, so most candidates are near misses or valid.
    const part = (n: number, max: number) => fc.integer({ min: 0, max }).map((v) => String(v).padStart(n, '0'));
    const year = fc.oneof(part(4, 9999), fc.constantFrom('2000', '1900', '2024', '2100', '0000'));
    const candidate = fc
      .tuple(year, part(2, 13), part(2, 32), fc.constantFrom('T', 'T', 'T', 't', ' '), part(2, 24), part(2, 60), part(2, 60), fc.constantFrom('', '.5', '.123456789', '.1234567890'), fc.constantFrom('Z', 'Z', '+01:00', '-23:59', '+24:00', '+05:60', '+01', 'z', ''))
      .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);
    fc.assert(
      fc.property(candidate, (text) => {
        const documented = DATE_TIME_PATTERN.test(text) && ajvDateTime(text);
        expect(parseDateTime(text) !== null).toBe(documented);
        if (documented) accepted++;
      }),
      { seed: 3, numRuns: 20_000 },
    );
    expect(accepted).toBeGreaterThan(1000);
  });
});

describe('codePointLength', () => {
  it('counts code points, as JSON Schema lengths do', () => {
    expect(codePointLength('😀😀')).toBe(2);
    expect(codePointLength('é')).toBe(1);
    expect(codePointLength('a\uFE0F')).toBe(2);
  });
});
