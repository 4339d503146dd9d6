import { resolveBootstrapOptions } from './bootstrap-options';
import { normalQuantile } from './normal-quantile';
import { pairCells, type FamilyPairs, type SeedPairs } from './pair-cells';
import { percentileInterval, standardError } from './replicate-summaries';
import { signTest } from './sign-test';
import { RESAMPLING_SCHEME, stratifiedBootstrap } from './stratified-bootstrap';
import { stratifiedMeans } from './stratified-mean';
import { seedColumn, type Stratum } from './stratum';
import type { BootstrapOptions, CellOutcome, Interval, PairedComparison, PairedSummary, Verdict } from './types';

export const PAIRED_ESTIMAND =
  'The mean score of A minus that of B over the cells run in both, weighted like summarizeRun: the mean over ' +
  'the families (fixed, each weighing the same) of the expected per-seed mean paired difference over that ' +
  'family\'s population of seeds.';

export const SIGN_TEST_METHOD =
  'Over seeds: the sign of each seed\'s mean paired difference (a difference under 1e-9 is a tie); ties dropped; ' +
  'exact two-sided binomial test with probability 1/2.';

/** Power of the minimum detectable difference: the customary 80%. */
const POWER = 0.8;

export const MINIMUM_DETECTABLE_DIFFERENCE_METHOD =
  '(z_{1-α/2} + z_{0.80}) × the bootstrap standard error of the difference: the smallest true difference these ' +
  'run sizes would detect with 80% power at the stated level (normal approximation).';

/**
 * A seed's mean difference closer to 0 than this is a tie. Scores are thousandths, so any real difference is at
 * least 0.001 / trials; what is smaller is the rounding of the float sums (0.3 − 0.1 is not 0.2 exactly).
 */
const TIE_TOLERANCE = 1e-9;

/** Statistics in the strata: only the difference is resampled; each run's mean is a point estimate. */
const DIFFERENCE = 0;
const MEAN_A = 1;
const MEAN_B = 2;

/** Compares two runs on the cells they share, per family and overall, resampling the same seeds for both. */
export function comparePaired(
  a: readonly CellOutcome[],
  b: readonly CellOutcome[],
  options: BootstrapOptions = {},
): PairedComparison {
  const { resamples, seed, level } = resolveBootstrapOptions(options);
  const paired = pairCells(a, b);
  const strata = paired.families.map(familyStratum);
  const estimates = stratifiedMeans(strata, 3);
  const replicates = stratifiedBootstrap(
    strata.map((stratum) => [stratum[DIFFERENCE]]),
    1,
    { resamples, seed },
  );
  const detectableFactor = normalQuantile(1 - (1 - level) / 2) + normalQuantile(POWER);

  const summary = (
    families: readonly FamilyPairs[],
    estimate: (statistic: number) => number | null,
    differenceReplicates: Float64Array | null,
  ): PairedSummary => {
    const difference = percentileInterval(estimate(DIFFERENCE), differenceReplicates, level);
    const error = standardError(differenceReplicates);
    const seeds = families.flatMap((family) => family.seeds);
    return {
      pairs: seeds.reduce((sum, seedPairs) => sum + seedPairs.scoresA.length, 0),
      seeds: seeds.length,
      mean_a: estimate(MEAN_A),
      mean_b: estimate(MEAN_B),
      difference,
      sign_test: signTestOverSeeds(seeds),
      verdict: verdictOf(difference),
      minimum_detectable_difference: error === null ? null : detectableFactor * error,
    };
  };

  return {
    overall: summary(paired.families, (statistic) => estimates.overall[statistic], replicates.overall[DIFFERENCE]),
    families: Object.fromEntries(
      paired.families.map((family, index) => [
        family.family,
        summary([family], (statistic) => estimates.families[statistic][index], replicates.families[DIFFERENCE][index]),
      ]),
    ),
    unpaired_a: paired.unpairedA,
    unpaired_b: paired.unpairedB,
    method: {
      resamples,
      seed,
      level,
      estimand: PAIRED_ESTIMAND,
      resampling: RESAMPLING_SCHEME,
      sign_test: SIGN_TEST_METHOD,
      minimum_detectable_difference: MINIMUM_DETECTABLE_DIFFERENCE_METHOD,
    },
  };
}

function familyStratum(family: FamilyPairs): Stratum {
  const positions = family.seeds.map((_, position) => position);
  return [
    seedColumn(positions, family.seeds.map(meanDifference)),
    seedColumn(positions, family.seeds.map((seed) => average(seed.scoresA))),
    seedColumn(positions, family.seeds.map((seed) => average(seed.scoresB))),
  ];
}

function meanDifference(seed: SeedPairs): number {
  let sum = 0;
  for (let i = 0; i < seed.scoresA.length; i++) sum += seed.scoresA[i] - seed.scoresB[i];
  return sum / seed.scoresA.length;
}

function average(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

function signTestOverSeeds(seeds: readonly SeedPairs[]) {
  let aBetter = 0;
  let bBetter = 0;
  for (const seed of seeds) {
    const difference = meanDifference(seed);
    if (difference > TIE_TOLERANCE) aBetter++;
    else if (difference < -TIE_TOLERANCE) bBetter++;
  }
  return signTest(aBetter, bBetter, seeds.length - aBetter - bBetter);
}

/** Only an interval that excludes 0 names a winner; no interval (no data, or a single seed) names none. */
function verdictOf(difference: Interval): Verdict {
  if (difference.low !== null && difference.low > 0) return 'a_better';
  if (difference.high !== null && difference.high < 0) return 'b_better';
  return 'within_noise';
}
