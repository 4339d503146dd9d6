import { resolveBootstrapOptions } from './bootstrap-options';
import { groupCells, type FamilyCells } from './group-cells';
import { passHatK } from './pass-hat-k';
import { percentileInterval } from './replicate-summaries';
import { RESAMPLING_SCHEME, stratifiedBootstrap } from './stratified-bootstrap';
import { meanOfPresent, stratifiedMeans } from './stratified-mean';
import { seedColumn, type SeedColumn, type Stratum } from './stratum';
import type { CellOutcome, GroupSummary, Interval, RunSummary, SummarizeOptions } from './types';

export const RUN_ESTIMAND =
  'For each figure, the mean over the run\'s families (fixed, each weighing the same) of the expected per-seed ' +
  'value over that family\'s population of seeds; a seed\'s value is its mean score, its success rate, or its ' +
  'unbiased pass^k = C(c,k)/C(n,k) over its n trials with c successes (seeds with fewer than k trials are left ' +
  'out, and so is a family with no seed of k trials).';

const MAX_K_LIMIT = 1000;

/**
 * Statistic indices in the strata: mean score, then pass^k for k = 1..maxK. The success rate is pass^1 (a seed's
 * C(c,1)/C(n,1) is c/n, weighted alike), so it is computed once and reported twice.
 */
const MEAN_SCORE = 0;
const passHatKStatistic = (k: number): number => k;
const SUCCESS_RATE = passHatKStatistic(1);

type Counts = Pick<GroupSummary, 'cells' | 'seeds'>;

/** One group's (a family's or the run's) figures: its point estimates and resampled estimates by statistic. */
interface StatisticView {
  estimate(statistic: number): number | null;
  replicates(statistic: number): Float64Array | null;
}

/** A run's figures, per family and overall, with intervals from the stratified seed bootstrap. */
export function summarizeRun(cells: readonly CellOutcome[], options: SummarizeOptions): RunSummary {
  const { maxK } = options;
  if (!Number.isSafeInteger(maxK) || maxK < 1 || maxK > MAX_K_LIMIT) {
    throw new RangeError(`maxK must be an integer in 1..${MAX_K_LIMIT}, got ${maxK}`);
  }
  const { resamples, seed, level } = resolveBootstrapOptions(options);
  const families = groupCells(cells);
  const statistics = passHatKStatistic(maxK) + 1;
  const strata = families.map((family) => familyStratum(family, maxK));
  const estimates = stratifiedMeans(strata, statistics);
  const replicates = stratifiedBootstrap(strata, statistics, { resamples, seed });

  const familyView = (index: number): StatisticView => ({
    estimate: (statistic) => estimates.families[statistic][index],
    replicates: (statistic) => replicates.families[statistic][index],
  });
  const overallView: StatisticView = {
    estimate: (statistic) => estimates.overall[statistic],
    replicates: (statistic) => replicates.overall[statistic],
  };
  const summary = (view: StatisticView, counts: Counts, flipRate: number | null): GroupSummary => {
    const interval = (statistic: number): Interval =>
      percentileInterval(view.estimate(statistic), view.replicates(statistic), level);
    return {
      ...counts,
      mean_score: interval(MEAN_SCORE),
      success_rate: interval(SUCCESS_RATE),
      pass_hat_k: Array.from({ length: maxK }, (_, i) => ({ k: i + 1, ...interval(passHatKStatistic(i + 1)) })),
      flip_rate: flipRate,
    };
  };

  const flipRates = families.map(flipRate);
  return {
    overall: summary(overallView, countsOf(families), meanOfPresent(flipRates)),
    // fromEntries defines each key as an own property, so even a family named "__proto__" is kept as data.
    families: Object.fromEntries(
      families.map((family, index) => [family.family, summary(familyView(index), countsOf([family]), flipRates[index])]),
    ),
    method: { resamples, seed, level, estimand: RUN_ESTIMAND, resampling: RESAMPLING_SCHEME },
  };
}

/** One value per seed for each statistic; pass^k counts only the seeds with at least k trials. */
function familyStratum(family: FamilyCells, maxK: number): Stratum {
  const everySeed = family.seeds.map((_, position) => position);
  const trials = family.seeds.map((seed) => seed.cells.length);
  const successes = family.seeds.map((seed) => seed.cells.filter((cell) => cell.success).length);
  const meanScores = family.seeds.map(({ cells }) => cells.reduce((sum, cell) => sum + cell.score, 0) / cells.length);
  const columns: Array<SeedColumn | null> = [seedColumn(everySeed, meanScores)];
  for (let k = 1; k <= maxK; k++) {
    const counted = everySeed.filter((position) => trials[position] >= k);
    columns.push(seedColumn(counted, counted.map((position) => passHatK(successes[position], trials[position], k)!)));
  }
  return columns;
}

/** The share of seeds with two or more trials whose trials do not all agree on success; null if no such seed. */
function flipRate(family: FamilyCells): number | null {
  const repeated = family.seeds.filter((seed) => seed.cells.length >= 2);
  if (repeated.length === 0) return null;
  const flipped = repeated.filter((seed) => seed.cells.some((cell) => cell.success !== seed.cells[0].success));
  return flipped.length / repeated.length;
}

function countsOf(families: readonly FamilyCells[]): Counts {
  let cells = 0;
  let seeds = 0;
  for (const family of families) {
    seeds += family.seeds.length;
    for (const seed of family.seeds) cells += seed.cells.length;
  }
  return { cells, seeds };
}
