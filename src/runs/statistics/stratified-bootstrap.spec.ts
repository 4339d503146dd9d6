import { standardError } from './replicate-summaries';
import { stratifiedBootstrap } from './stratified-bootstrap';
import { seedColumn, type Stratum } from './stratum';

const positions = (count: number): number[] => Array.from({ length: count }, (_, i) => i);
const stratum = (...columns: number[][]): Stratum => columns.map((values) => seedColumn(positions(values.length), values));

describe('stratifiedBootstrap', () => {
  it('matches the unbiased variance of a mean (s²/n), which drawing n of n would understate by (n−1)/n', () => {
    const values = [0.1, 0.9, 0.4, 0.4, 0.7, 0.2, 1, 0, 0.55, 0.3];
    const n = values.length;
    const mean = values.reduce((a, b) => a + b, 0) / n;
    const unbiasedVariance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1);
    const replicates = stratifiedBootstrap([stratum(values)], 1, { resamples: 40_000, seed: 3 }).families[0][0];
    const ratio = standardError(replicates)! ** 2 / (unbiasedVariance / n);
    // 40,000 resamples put the ratio within about ±1.5% of 1; drawing n of n would give 0.9.
    expect(ratio).toBeGreaterThan(0.96);
    expect(ratio).toBeLessThan(1.04);
  });

  it('weighs families the same and never resamples them', () => {
    const { overall, families } = stratifiedBootstrap([stratum([0, 0, 0]), stratum([1, 1, 1, 1, 1, 1])], 1, {
      resamples: 100,
      seed: 1,
    });
    expect([...families[0][0]!].every((value) => value === 0)).toBe(true);
    expect([...overall[0]!].every((value) => value === 0.5)).toBe(true);
  });

  it('resamples the statistics measured on the same seeds with the same draws', () => {
    // The second column is the first plus 1: drawn together, every replicate keeps that gap.
    const strata = [stratum([0.1, 0.5, 0.9, 0.3], [1.1, 1.5, 1.9, 1.3])];
    const { families } = stratifiedBootstrap(strata, 2, { resamples: 200, seed: 9 });
    const [first, second] = [families[0][0]!, families[1][0]!];
    first.forEach((value, i) => expect(second[i] - value).toBeCloseTo(1, 12));
  });

  it('has no replicates for a family with fewer than 2 seeds, nor overall where such a family counts', () => {
    const strata = [stratum([0.2, 0.4], [0.3]), [null, null]];
    const { overall, families } = stratifiedBootstrap(strata, 2, { resamples: 10, seed: 1 });
    expect(families[0][0]).not.toBeNull();
    expect(overall[0]).not.toBeNull(); // the second family has no column for it: it does not count
    expect(families[1][0]).toBeNull();
    expect(overall[1]).toBeNull();
  });
});
