import fc from 'fast-check';
import { decimalPlaces, hasAtMostDecimals } from './decimals';

describe('decimalPlaces', () => {
  it.each([
    [19.99, 2],
    [0.07, 2],
    [0.29, 2],
    [0.57, 2],
    [348, 0],
    [1234.5, 1],
    [0.005, 3],
    [1e-7, 7],
    [1.5e-7, 8],
    [1e21, 0],
    [1.5e21, 0],
    [0.30000000000000004, 17],
    [5e-324, 324],
    [-0.01, 2],
  ])('%p has %p', (value, places) => {
    expect(decimalPlaces(value)).toBe(places);
  });

  it('is infinite for NaN and infinities, which have no decimal form', () => {
    expect(hasAtMostDecimals(Number.NaN, 2)).toBe(false);
    expect(hasAtMostDecimals(Number.POSITIVE_INFINITY, 2)).toBe(false);
  });

  it('accepts every amount written with at most 2 decimals (cents / 100), and nothing with a third', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (cents) => {
        expect(hasAtMostDecimals(cents / 100, 2)).toBe(true);
        expect(hasAtMostDecimals(Number(`${cents / 100}`), 2)).toBe(true);
        if (cents % 10 !== 0 || cents === 0) expect(hasAtMostDecimals((cents * 10 + 5) / 1000, 2)).toBe(false);
      }),
      { seed: 7 },
    );
  });

  it('says a number has at most p decimals exactly when writing it with p decimals gives it back', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e15, max: 1e15, noNaN: true }), fc.integer({ min: 0, max: 20 }), (value, places) => {
        expect(hasAtMostDecimals(value, places)).toBe(Number(value.toFixed(places)) === value);
      }),
      { seed: 11, numRuns: 2000 },
    );
  });
});
