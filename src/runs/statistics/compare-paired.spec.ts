import { comparePaired } from './compare-paired';
import type { CellOutcome, PairedComparison } from './types';

const cell = (family: string, seed: number, trial: number, score: number): CellOutcome => ({
  family,
  seed,
  trial,
  score,
  success: score >= 0.8,
});

/*
 * The fixture, by hand. Pairs are cells with the same (family, seed, trial) in both runs:
 *   x/1 trials 0, 1: A .9 .7, B .6 .7 → seed difference ((.9−.6) + (.7−.7))/2 = .15; A mean .8, B mean .65
 *   x/2 trial 0:     A .5,    B .8    → seed difference −.3;                          A mean .5, B mean .8
 *   unpaired A: x/2 trial 1, x/3 trial 0 (2); unpaired B: x/2 trial 2, y/1 trial 0 (2)
 * x: mean A (.8 + .5)/2 = .65, mean B (.65 + .8)/2 = .725, difference (.15 − .3)/2 = −.075;
 *    sign test: one seed each way, p = 2 × P(X <= 1 | n = 2) = 1.5, capped at 1.
 * y: no pairs. overall = x (the only family with pairs).
 */
const runA = [cell('x', 1, 0, 0.9), cell('x', 1, 1, 0.7), cell('x', 2, 0, 0.5), cell('x', 2, 1, 0.5), cell('x', 3, 0, 0.4)];
const runB = [cell('x', 1, 0, 0.6), cell('x', 1, 1, 0.7), cell('x', 2, 0, 0.8), cell('x', 2, 2, 0.1), cell('y', 1, 0, 0.3)];

/** A family of `seeds` seeds × 4 trials whose scores come from a fixed formula, shifted by `lift`. */
function formulaRun(family: string, seeds: number, lift: number): CellOutcome[] {
  return Array.from({ length: seeds }, (_, s) =>
    [0, 1, 2, 3].map((trial) => cell(family, s, trial, Math.min(1, ((s * 37 + trial * 11) % 80) / 100 + lift))),
  ).flat();
}

function numbersIn(value: unknown): number[] {
  if (typeof value === 'number') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(numbersIn);
}

describe('comparePaired', () => {
  const comparison = comparePaired(runA, runB);

  it('pairs cells on (family, seed, trial) and counts the rest', () => {
    expect(comparison.unpaired_a).toBe(2);
    expect(comparison.unpaired_b).toBe(2);
    expect(Object.keys(comparison.families)).toEqual(['x', 'y']);
  });

  it('gives the hand-computed figures', () => {
    const { x } = comparison.families;
    expect(x.pairs).toBe(3);
    expect(x.seeds).toBe(2);
    expect(x.mean_a).toBeCloseTo(0.65, 12);
    expect(x.mean_b).toBeCloseTo(0.725, 12);
    expect(x.difference.estimate).toBeCloseTo(-0.075, 12);
    expect(x.sign_test).toEqual({ a_better: 1, b_better: 1, ties: 0, p_value: 1 });
    expect(x.verdict).toBe('within_noise');
    expect(comparison.overall).toEqual(x);
  });

  it('says there is nothing to compare in a family with no pairs', () => {
    expect(comparison.families.y).toEqual({
      pairs: 0,
      seeds: 0,
      mean_a: null,
      mean_b: null,
      difference: { estimate: null, low: null, high: null },
      sign_test: { a_better: 0, b_better: 0, ties: 0, p_value: null },
      verdict: 'within_noise',
      minimum_detectable_difference: null,
    });
  });

  it('names the better run only when the interval excludes 0, and either way round', () => {
    const better = formulaRun('f', 20, 0.15);
    const worse = formulaRun('f', 20, 0);
    const forward = comparePaired(better, worse).overall;
    expect(forward.verdict).toBe('a_better');
    expect(forward.difference.low).toBeGreaterThan(0);
    expect(forward.sign_test.a_better).toBe(20);
    expect(forward.sign_test.p_value).toBeCloseTo(2 / 2 ** 20, 15);
    expect(comparePaired(worse, better).overall.verdict).toBe('b_better');
    const same = comparePaired(worse, worse).overall;
    expect(same.verdict).toBe('within_noise');
    expect(same.difference).toEqual({ estimate: 0, low: 0, high: 0 });
    expect(same.sign_test).toEqual({ a_better: 0, b_better: 0, ties: 20, p_value: null });
  });

  it('counts as a tie a seed whose difference is only float rounding', () => {
    // (.1 − .3) + (.2 − 0) is 2.8e-17 in doubles, not 0: the seed still has no sign.
    const a = [cell('f', 1, 0, 0.1), cell('f', 1, 1, 0.2)];
    const b = [cell('f', 1, 0, 0.3), cell('f', 1, 1, 0)];
    expect((0.1 - 0.3 + (0.2 - 0)) / 2).not.toBe(0);
    expect(comparePaired(a, b).overall.sign_test.ties).toBe(1);
  });

  it('gives a minimum detectable difference of (z_.975 + z_.8) bootstrap standard errors', () => {
    // One family of n seeds: the standard error of its mean difference is sd(seed differences)/√n.
    const a = formulaRun('f', 30, 0);
    const b = formulaRun('f', 30, 0).map((c) => ({ ...c, score: (c.seed * 13 + c.trial * 29) % 90 / 100 }));
    const { overall } = comparePaired(a, b, { resamples: 20_000 });
    const differences = Array.from({ length: 30 }, (_, seed) => {
      const pairs = a.filter((c) => c.seed === seed).map((c, i) => c.score - b.filter((d) => d.seed === seed)[i].score);
      return pairs.reduce((x, y) => x + y, 0) / pairs.length;
    });
    const mean = differences.reduce((x, y) => x + y, 0) / 30;
    const standardError = Math.sqrt(differences.reduce((sum, d) => sum + (d - mean) ** 2, 0) / 29 / 30);
    expect(overall.minimum_detectable_difference! / standardError).toBeCloseTo(1.959964 + 0.841621, 1);
  });

  it('is deterministic, and never NaN or Infinity', () => {
    expect(comparePaired([...runA].reverse(), runB)).toEqual(comparison);
    const cases: Array<[CellOutcome[], CellOutcome[]]> = [
      [[], []],
      [runA, []],
      [[cell('x', 1, 0, 1)], [cell('x', 1, 0, 0)]],
      [formulaRun('f', 5, 0).map((c) => ({ ...c, score: 1 })), formulaRun('f', 5, 0).map((c) => ({ ...c, score: 1 }))],
      [formulaRun('f', 5, 0).map((c) => ({ ...c, score: 0 })), formulaRun('f', 5, 0).map((c) => ({ ...c, score: 0 }))],
    ];
    for (const [a, b] of cases) {
      const result: PairedComparison = comparePaired(a, b, { resamples: 100 });
      expect(numbersIn(result).filter((value) => !Number.isFinite(value))).toEqual([]);
    }
    expect(comparePaired([], []).overall.verdict).toBe('within_noise');
  });

  it('states its method', () => {
    expect(comparison.method).toEqual({
      resamples: 2000,
      seed: 25,
      level: 0.95,
      estimand: expect.stringContaining('mean score of A minus that of B'),
      resampling: expect.stringContaining('Families are fixed strata'),
      sign_test: expect.stringContaining('exact two-sided binomial'),
      minimum_detectable_difference: expect.stringContaining('80% power'),
    });
  });
});
