import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { comparePaired } from './compare-paired';
import { summarizeRun } from './summarize-run';
import type { CellOutcome } from './types';

/*
 * The bar: simulated runs whose truth is known, and the intervals must cover it at the nominal rate.
 *
 * A family is a Beta(a, b) population of per-seed success probabilities; a run draws each seed's probability
 * from its family's population and runs its trials as Bernoulli draws. The truth for pass^k is then exact:
 * the mean over the run's (fixed) families of E[p^k] = Π_{i<k} (a+i)/(a+b+i).
 *
 * Each simulated run resamples 600 times rather than 2,000: the interval's coverage is a property of the
 * bootstrap distribution, and fewer resamples only add Monte-Carlo jitter to its percentiles (at 600, about 0.11
 * standard errors of the estimate, against a half-width of 1.96), which lowers coverage by about 0.1 point; it
 * keeps this file within its time budget on one CPU. With 1,000 simulated runs, the measured coverage has a
 * standard error of 0.7 points around the true one, so the 93-97% band is three of them either side of 95%.
 *
 * This file measured: pass^1 covered in 94.2% of runs, pass^4 in 94.0%; identical agents within noise in 94.6%
 * of pairs and the better agent called better in 99.8% (both at 1,000 pairs). A wider check outside it (1,000 resamples a run; 3,000 runs
 * at these sizes, 2,000 at 5 families × 10 seeds, 2,000 with low-p families) measured 94.7%/95.7%, 94.1%/93.5%
 * and 94.6%/94.2% for pass^1/pass^4. The misses are lopsided (the truth lies above the interval about twice as
 * often as below): the percentile interval's known shortfall on a right-skewed estimate, small enough here.
 *
 * What was measured when the scheme was chosen (about 17,000 further runs, outside this file): drawing all n
 * seeds of a family covered 93.5% (pass^1) and 93.5% (pass^4) at these sizes, and 92.8% for pass^4 at 5 families
 * × 10 seeds; resampling trials inside the resampled seeds covered 98.3% for pass^1 and 22% for pass^4 (resampled
 * trials repeat, which inflates C(c,k)/C(n,k)); drawing n−1 of n seeds (what summarizeRun does) covered
 * 94.4-95.0% in every setting tried.
 */

type Rng = ReturnType<typeof xoroshiro128plus>;

interface Population {
  a: number;
  b: number;
}

/**
 * COVERAGE_RUNS simulated runs (default 300, within npm test's budget; CI runs this file again at 1,000, the size
 * the figures above were measured at). The coverage bar is a two-sided band of three standard errors of the
 * measured rate around 95%: 91.2-98.8% at 300 runs, 93.0-97.0% at 1,000. Either catches the schemes rejected
 * above (22% and 98.3% for pass^4 and pass^1), and 1,000 catches a scheme two points off.
 */
const SIMULATED_RUNS = Number(process.env.COVERAGE_RUNS ?? 300);
const BAND = 3 * Math.sqrt((0.95 * 0.05) / SIMULATED_RUNS);
/** The verdict checks are rates far from their bounds (about 95% and 99.8%), so fewer pairs decide them. */
const SIMULATED_PAIRS = Math.round(SIMULATED_RUNS * 0.4);
const RESAMPLES = 600;
const TRIALS = 4;
const MAX_K = 4;
const SUCCESS_THRESHOLD = 0.8;

/** Beta(a, b) for integer a and b: the a-th smallest of a + b − 1 uniforms. */
function drawBeta(rng: Rng, { a, b }: Population): number {
  const uniforms = Array.from({ length: a + b - 1 }, () => uniformFloat64(rng)).sort((x, y) => x - y);
  return uniforms[a - 1];
}

/** E[p^k] for p ~ Beta(a, b). */
function expectedPower({ a, b }: Population, k: number): number {
  let product = 1;
  for (let i = 0; i < k; i++) product *= (a + i) / (a + b + i);
  return product;
}

/** A trial's score: at or above the success threshold exactly when it succeeds, as in the server. */
function trialCell(rng: Rng, family: string, seed: number, trial: number, successProbability: number): CellOutcome {
  const success = uniformFloat64(rng) < successProbability;
  const score = success
    ? SUCCESS_THRESHOLD + (1 - SUCCESS_THRESHOLD) * uniformFloat64(rng)
    : SUCCESS_THRESHOLD * uniformFloat64(rng);
  return { family, seed, trial, score, success };
}

function drawPopulations(rng: Rng, count: number, a: [number, number], b: [number, number]): Population[] {
  return Array.from({ length: count }, () => ({ a: uniformInt(rng, ...a), b: uniformInt(rng, ...b) }));
}

/** One run, or a pair of runs on the same seeds: run A's success probability is the seed's plus `lift`. */
function simulate(rng: Rng, populations: Population[], seeds: number, lift: number): { a: CellOutcome[]; b: CellOutcome[] } {
  const a: CellOutcome[] = [];
  const b: CellOutcome[] = [];
  populations.forEach((population, f) => {
    for (let seed = 0; seed < seeds; seed++) {
      const p = drawBeta(rng, population);
      for (let trial = 0; trial < TRIALS; trial++) {
        a.push(trialCell(rng, `family-${f}`, seed, trial, Math.min(1, p + lift)));
        b.push(trialCell(rng, `family-${f}`, seed, trial, p));
      }
    }
  });
  return { a, b };
}

const share = (count: number, of = SIMULATED_RUNS): number => count / of;

describe('coverage of the intervals, by simulation with a known truth', () => {
  it(`covers the true overall pass^1 and pass^${MAX_K} in 95% ± ${(BAND * 100).toFixed(1)} points of ${SIMULATED_RUNS} runs (5-15 families × 10-20 seeds)`, () => {
    const rng = xoroshiro128plus(20_251);
    let coveredPassOne = 0;
    let coveredPassK = 0;
    for (let run = 0; run < SIMULATED_RUNS; run++) {
      // Family means from 0.2 to 0.9; their pass^4 from 0.01 to 0.6, so skewed and near-zero families are in.
      const populations = drawPopulations(rng, uniformInt(rng, 5, 15), [1, 8], [1, 4]);
      const { a: cells } = simulate(rng, populations, uniformInt(rng, 10, 20), 0);
      const truth = (k: number): number => populations.reduce((sum, p) => sum + expectedPower(p, k), 0) / populations.length;
      const { pass_hat_k } = summarizeRun(cells, { maxK: MAX_K, resamples: RESAMPLES, seed: run }).overall;
      const covers = (k: number): boolean => pass_hat_k[k - 1].low! <= truth(k) && truth(k) <= pass_hat_k[k - 1].high!;
      if (covers(1)) coveredPassOne++;
      if (covers(MAX_K)) coveredPassK++;
    }
    expect(share(coveredPassOne)).toBeGreaterThanOrEqual(0.95 - BAND);
    expect(share(coveredPassOne)).toBeLessThanOrEqual(0.95 + BAND);
    expect(share(coveredPassK)).toBeGreaterThanOrEqual(0.95 - BAND);
    expect(share(coveredPassK)).toBeLessThanOrEqual(0.95 + BAND);
  });

  it(`calls two identical agents within noise in at least 93% of ${SIMULATED_PAIRS} pairs of runs`, () => {
    const rng = xoroshiro128plus(20_252);
    let withinNoise = 0;
    for (let run = 0; run < SIMULATED_PAIRS; run++) {
      const populations = drawPopulations(rng, uniformInt(rng, 5, 15), [1, 8], [1, 4]);
      const { a, b } = simulate(rng, populations, uniformInt(rng, 10, 20), 0);
      if (comparePaired(a, b, { resamples: RESAMPLES, seed: run }).overall.verdict === 'within_noise') withinNoise++;
    }
    expect(share(withinNoise, SIMULATED_PAIRS)).toBeGreaterThanOrEqual(0.93);
  });

  it(`calls an agent 0.15 likelier to succeed on every seed better in at least 95% of ${SIMULATED_PAIRS} pairs`, () => {
    /*
     * 10 families × 15 seeds × 4 trials, family means 0.29-0.71. +0.15 success probability is +0.075 mean score
     * (a success scores 0.9 on average, a failure 0.4); a seed's mean paired difference has a standard deviation
     * near 0.21, so the overall difference has a standard error near 0.21/√150 = 0.017 and the true difference
     * sits about 4.4 of them from 0: the power is about 99%. At 5 families × 10 seeds it would be about 75%,
     * which is what minimum_detectable_difference exists to tell a reader.
     */
    const rng = xoroshiro128plus(20_253);
    let aBetter = 0;
    for (let run = 0; run < SIMULATED_PAIRS; run++) {
      const populations = drawPopulations(rng, 10, [2, 5], [2, 5]);
      const { a, b } = simulate(rng, populations, 15, 0.15);
      if (comparePaired(a, b, { resamples: RESAMPLES, seed: run }).overall.verdict === 'a_better') aBetter++;
    }
    expect(share(aBetter, SIMULATED_PAIRS)).toBeGreaterThanOrEqual(0.95);
  });
});
