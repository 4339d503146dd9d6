import { summarizeRun } from './summarize-run';
import type { CellOutcome, Interval, RunSummary } from './types';

const cell = (family: string, seed: number, trial: number, score: number, success: boolean): CellOutcome => ({
  family,
  seed,
  trial,
  score,
  success,
});

/** Cells of one seed from its scores; a score of 0.8 or more is a success, as the runs contract says. */
const seedCells = (family: string, seed: number, scores: number[]): CellOutcome[] =>
  scores.map((score, trial) => cell(family, seed, trial, score, score >= 0.8));

/*
 * The fixture, by hand (c successes of n trials per seed; pass^k = C(c,k)/C(n,k)):
 *   alpha/1: 1, .9, .8, .2  c=3 n=4  mean .725  pass^1 3/4  pass^2 3/6   pass^3 1/4  pass^4 0
 *   alpha/2: .9, .8, .5, .1 c=2 n=4  mean .575  pass^1 2/4  pass^2 1/6   pass^3 0    pass^4 0
 *   alpha/3: 1, 1           c=2 n=2  mean 1     pass^1 1    pass^2 1     (n < 3: left out of pass^3 and pass^4)
 *   beta/1:  1, 1, 1, 1     c=4 n=4  mean 1     pass^1 1    pass^2 1     pass^3 1    pass^4 1
 *   beta/2:  0, .3, .6      c=0 n=3  mean .3    pass^1 0    pass^2 0     pass^3 0    (n < 4: left out of pass^4)
 * alpha: mean score 2.3/3; pass^1 2.25/3 = .75; pass^2 (1/2 + 1/6 + 1)/3 = 5/9; pass^3 (1/4 + 0)/2 = 1/8;
 *        pass^4 (0 + 0)/2 = 0; flip rate: alpha/1 and alpha/2 disagree, alpha/3 does not = 2/3.
 * beta:  mean score 1.3/2 = .65; pass^1 .5; pass^2 .5; pass^3 .5; pass^4 1 (one seed); flip rate 0.
 * overall, each family weighing the same: mean score (2.3/3 + .65)/2; pass^1 .625; pass^2 (5/9 + 1/2)/2;
 *        pass^3 (1/8 + 1/2)/2 = .3125; pass^4 (0 + 1)/2 = .5; flip rate (2/3 + 0)/2 = 1/3.
 */
const fixture: CellOutcome[] = [
  ...seedCells('alpha', 1, [1, 0.9, 0.8, 0.2]),
  ...seedCells('alpha', 2, [0.9, 0.8, 0.5, 0.1]),
  ...seedCells('alpha', 3, [1, 1]),
  ...seedCells('beta', 1, [1, 1, 1, 1]),
  ...seedCells('beta', 2, [0, 0.3, 0.6]),
];

/** A larger run whose intervals are not pinned to the few values of a tiny fixture: scores from a fixed formula. */
const spreadRun: CellOutcome[] = ['x', 'y', 'z'].flatMap((family, f) =>
  [1, 2, 3, 4, 5, 6, 7, 8].flatMap((seed) =>
    seedCells(family, seed, [0, 1, 2, 3].map((trial) => ((seed * 37 + trial * 11 + f * 5) % 100) / 99)),
  ),
);

const estimates = (intervals: Array<{ k: number } & Interval>): Array<number | null> => intervals.map((i) => i.estimate);

/** Every number anywhere in the summary, with its path, for the no-NaN-or-Infinity checks. */
function numbersIn(value: unknown, path = ''): Array<[string, number]> {
  if (typeof value === 'number') return [[path, value]];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => numbersIn(child, `${path}.${key}`));
}

function expectOnlyFiniteNumbers(summary: unknown): void {
  const notFinite = numbersIn(summary).filter(([, value]) => !Number.isFinite(value));
  expect(notFinite).toEqual([]);
}

function everyInterval(summary: RunSummary): Interval[] {
  return [summary.overall, ...Object.values(summary.families)].flatMap((group) => [
    group.mean_score,
    group.success_rate,
    ...group.pass_hat_k,
  ]);
}

describe('summarizeRun', () => {
  const summary = summarizeRun(fixture, { maxK: 4 });

  it('gives each family the hand-computed figures, seeds with fewer than k trials left out of pass^k', () => {
    const { alpha, beta } = summary.families;
    expect(alpha.cells).toBe(10);
    expect(alpha.seeds).toBe(3);
    expect(alpha.mean_score.estimate).toBeCloseTo(2.3 / 3, 12);
    expect(alpha.success_rate.estimate).toBeCloseTo(0.75, 12);
    expect(alpha.pass_hat_k.map((entry) => entry.k)).toEqual([1, 2, 3, 4]);
    const alphaPass = estimates(alpha.pass_hat_k);
    [0.75, 5 / 9, 1 / 8, 0].forEach((expected, i) => expect(alphaPass[i]).toBeCloseTo(expected, 12));
    expect(alpha.flip_rate).toBeCloseTo(2 / 3, 12);

    expect(beta.cells).toBe(7);
    expect(beta.seeds).toBe(2);
    expect(beta.mean_score.estimate).toBeCloseTo(0.65, 12);
    const betaPass = estimates(beta.pass_hat_k);
    [0.5, 0.5, 0.5, 1].forEach((expected, i) => expect(betaPass[i]).toBeCloseTo(expected, 12));
    expect(beta.flip_rate).toBe(0);
  });

  it('weighs each family the same overall', () => {
    const { overall } = summary;
    expect(overall.cells).toBe(17);
    expect(overall.seeds).toBe(5);
    expect(overall.mean_score.estimate).toBeCloseTo((2.3 / 3 + 0.65) / 2, 12);
    expect(overall.success_rate.estimate).toBeCloseTo(0.625, 12);
    const pass = estimates(overall.pass_hat_k);
    [0.625, (5 / 9 + 0.5) / 2, 0.3125, 0.5].forEach((expected, i) => expect(pass[i]).toBeCloseTo(expected, 12));
    expect(overall.flip_rate).toBeCloseTo(1 / 3, 12);
  });

  it('gives no interval where a family has a single seed to estimate from, overall included', () => {
    // beta's pass^4 rests on beta/1 alone: its seed-to-seed spread is unknown.
    expect(summary.families.beta.pass_hat_k[3]).toEqual({ k: 4, estimate: 1, low: null, high: null });
    expect(summary.overall.pass_hat_k[3]).toEqual({ k: 4, estimate: 0.5, low: null, high: null });
    // beta's pass^3 rests on two seeds: an interval exists.
    expect(summary.families.beta.pass_hat_k[2].low).not.toBeNull();
  });

  it('brackets every estimate with its interval, within [0, 1]', () => {
    for (const interval of everyInterval(summary)) {
      if (interval.low === null || interval.high === null) continue;
      expect(interval.low).toBeGreaterThanOrEqual(0);
      expect(interval.low).toBeLessThanOrEqual(interval.estimate!);
      expect(interval.high).toBeGreaterThanOrEqual(interval.estimate!);
      expect(interval.high).toBeLessThanOrEqual(1);
    }
  });

  it('does not resample trials: seeds that agree exactly leave no spread, however noisy their trials', () => {
    const cells = [1, 2, 3, 4, 5].flatMap((seed) => seedCells('same', seed, [0.9, 0.1, 0.9, 0.1]));
    const { overall } = summarizeRun(cells, { maxK: 2 });
    expect(overall.success_rate).toEqual({ estimate: 0.5, low: 0.5, high: 0.5 });
    expect(overall.pass_hat_k[1]).toEqual({ k: 2, estimate: 1 / 6, low: 1 / 6, high: 1 / 6 });
  });

  it('does not resample families: the spread between fixed families is not noise', () => {
    const cells = [1, 2, 3].flatMap((seed) => [...seedCells('all', seed, [1, 1]), ...seedCells('none', seed, [0, 0])]);
    expect(summarizeRun(cells, { maxK: 1 }).overall.success_rate).toEqual({ estimate: 0.5, low: 0.5, high: 0.5 });
  });

  it('states its method, defaults included', () => {
    expect(summary.method).toEqual({
      resamples: 2000,
      seed: 25,
      level: 0.95,
      estimand: expect.stringContaining('families (fixed'),
      resampling: expect.stringContaining('n−1 of its n seeds are drawn with replacement'),
    });
  });

  describe('determinism', () => {
    it('gives the same output for the same cells and seed, whatever their order', () => {
      const again = summarizeRun([...fixture].reverse(), { maxK: 4 });
      expect(again).toEqual(summary);
      expect(JSON.stringify(again)).toBe(JSON.stringify(summary));
    });

    it('draws differently under another seed, and narrows at a lower level', () => {
      const base = summarizeRun(spreadRun, { maxK: 2 });
      expect(summarizeRun(spreadRun, { maxK: 2 })).toEqual(base);
      const reseeded = summarizeRun(spreadRun, { maxK: 2, seed: 26 });
      expect(reseeded.overall.mean_score.estimate).toBe(base.overall.mean_score.estimate);
      expect(reseeded.overall.mean_score.low).not.toBe(base.overall.mean_score.low);
      const narrower = summarizeRun(spreadRun, { maxK: 2, level: 0.5 }).overall.mean_score;
      expect(narrower.high! - narrower.low!).toBeLessThan(base.overall.mean_score.high! - base.overall.mean_score.low!);
    });
  });

  describe('never NaN or Infinity', () => {
    it.each<[string, CellOutcome[]]>([
      ['no cells', []],
      ['one family', seedCells('only', 1, [1, 0, 1]).concat(seedCells('only', 2, [0, 0, 1]))],
      ['one seed', seedCells('a', 7, [1, 0.5, 0.9, 0.2])],
      ['one trial a seed', [cell('a', 1, 0, 0.9, true), cell('a', 2, 0, 0.1, false)]],
      ['all successes', [1, 2, 3].flatMap((seed) => seedCells('a', seed, [1, 0.9, 0.8, 1]))],
      ['all failures', [1, 2, 3].flatMap((seed) => seedCells('a', seed, [0, 0.1, 0.7, 0]))],
    ])('%s', (_, cells) => {
      expectOnlyFiniteNumbers(summarizeRun(cells, { maxK: 4, resamples: 200 }));
    });

    it('says there is nothing to estimate from no cells', () => {
      const { overall, families } = summarizeRun([], { maxK: 2 });
      expect(families).toEqual({});
      expect(overall).toEqual({
        cells: 0,
        seeds: 0,
        mean_score: { estimate: null, low: null, high: null },
        success_rate: { estimate: null, low: null, high: null },
        pass_hat_k: [
          { k: 1, estimate: null, low: null, high: null },
          { k: 2, estimate: null, low: null, high: null },
        ],
        flip_rate: null,
      });
    });

    it('gives an estimate but no interval from a single seed, and no flip rate from single trials', () => {
      const single = summarizeRun(seedCells('a', 7, [1, 0.5, 0.9, 0.2]), { maxK: 1 }).overall;
      expect(single.mean_score).toEqual({ estimate: 0.65, low: null, high: null });
      expect(single.flip_rate).toBe(1);
      const once = summarizeRun([cell('a', 1, 0, 0.9, true), cell('a', 2, 0, 0.1, false)], { maxK: 2 }).overall;
      expect(once.flip_rate).toBeNull();
      expect(once.pass_hat_k[1]).toEqual({ k: 2, estimate: null, low: null, high: null });
    });

    it('gives exact bounds at all successes and all failures', () => {
      const all = summarizeRun([1, 2, 3].flatMap((seed) => seedCells('a', seed, [1, 0.9])), { maxK: 2 }).overall;
      expect(all.pass_hat_k[1]).toEqual({ k: 2, estimate: 1, low: 1, high: 1 });
      const none = summarizeRun([1, 2, 3].flatMap((seed) => seedCells('a', seed, [0, 0.1])), { maxK: 2 }).overall;
      expect(none.pass_hat_k[1]).toEqual({ k: 2, estimate: 0, low: 0, high: 0 });
    });
  });

  it('keeps a family named like an Object.prototype key as data', () => {
    const cells = [1, 2].flatMap((seed) => seedCells('__proto__', seed, [1, 0]));
    const { families } = summarizeRun(cells, { maxK: 1, resamples: 50 });
    expect(Object.keys(families)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(families)).toBe(Object.prototype);
  });

  it('refuses input that would make a figure wrong rather than missing', () => {
    expect(() => summarizeRun([cell('a', 1, 0, 1, true), cell('a', 1, 0, 0, false)], { maxK: 1 })).toThrow(/given twice/);
    expect(() => summarizeRun([cell('a', 1, 0, 1.5, true)], { maxK: 1 })).toThrow(RangeError);
    expect(() => summarizeRun([cell('a', 1, 0, Number.NaN, true)], { maxK: 1 })).toThrow(RangeError);
    expect(() => summarizeRun(fixture, { maxK: 0 })).toThrow(RangeError);
    expect(() => summarizeRun(fixture, { maxK: 2, resamples: 1 })).toThrow(RangeError);
    expect(() => summarizeRun(fixture, { maxK: 2, seed: -1 })).toThrow(RangeError);
    expect(() => summarizeRun(fixture, { maxK: 2, level: 1 })).toThrow(RangeError);
  });
});
