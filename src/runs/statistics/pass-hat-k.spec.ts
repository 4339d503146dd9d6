import fc from 'fast-check';
import { passHatK } from './pass-hat-k';

describe('passHatK', () => {
  it.each([
    // C(c,k)/C(n,k), by hand:
    [3, 4, 1, 3 / 4], //  C(3,1)/C(4,1) = 3/4
    [3, 4, 2, 0.5], //    C(3,2)/C(4,2) = 3/6
    [2, 4, 2, 1 / 6], //  C(2,2)/C(4,2) = 1/6
    [3, 4, 3, 0.25], //   C(3,3)/C(4,3) = 1/4
    [3, 5, 2, 0.3], //    C(3,2)/C(5,2) = 3/10
    [4, 4, 4, 1], //      every trial succeeded: exactly 1
    [3, 4, 4, 0], //      fewer successes than k: exactly 0
    [0, 3, 1, 0],
  ])('pass^k of %p successes in %p trials at k = %p is %p', (successes, trials, k, expected) => {
    expect(passHatK(successes, trials, k)).toBeCloseTo(expected, 15);
  });

  it('is null when fewer than k trials were run: they say nothing about k in a row', () => {
    expect(passHatK(2, 3, 4)).toBeNull();
    expect(passHatK(0, 0, 1)).toBeNull();
  });

  it('is the share of the k-trial subsets in which every trial succeeded (counted by enumeration)', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 10 }), (trials, k) => {
        const successes = trials.filter(Boolean).length;
        const estimate = passHatK(successes, trials.length, k);
        if (k > trials.length) return expect(estimate).toBeNull();
        let subsets = 0;
        let allSucceeded = 0;
        for (let mask = 0; mask < 1 << trials.length; mask++) {
          const members = trials.filter((_, i) => mask & (1 << i));
          if (members.length !== k) continue;
          subsets++;
          if (members.every(Boolean)) allSucceeded++;
        }
        expect(estimate).toBeCloseTo(allSucceeded / subsets, 12);
      }),
      { seed: 25 },
    );
  });

  it('rejects counts that cannot be', () => {
    expect(() => passHatK(5, 4, 1)).toThrow(RangeError);
    expect(() => passHatK(-1, 4, 1)).toThrow(RangeError);
    expect(() => passHatK(1, 4, 0)).toThrow(RangeError);
    expect(() => passHatK(1.5, 4, 1)).toThrow(RangeError);
    expect(() => passHatK(Number.NaN, 4, 1)).toThrow(RangeError);
  });
});
