/**
 * What one statistic measures on one family: one value per seed that counts for it (pass^k leaves out the seeds
 * with fewer than k trials, so statistics of one family may count different seeds).
 */
export interface SeedColumn {
  /** Positions, in the family's seed list, of the seeds counted; statistics counting the same seeds share draws. */
  seeds: Int32Array;
  /** The value of each counted seed, in the order of `seeds`. */
  values: Float64Array;
}

/**
 * One family, a fixed stratum of the bootstrap: per statistic (by index), its column, or null where no seed of
 * the family counts for that statistic.
 */
export type Stratum = ReadonlyArray<SeedColumn | null>;

export function seedColumn(seeds: readonly number[], values: readonly number[]): SeedColumn | null {
  if (seeds.length === 0) return null;
  return { seeds: Int32Array.from(seeds), values: Float64Array.from(values) };
}

export function sameSeeds(a: SeedColumn, b: SeedColumn): boolean {
  if (a.seeds.length !== b.seeds.length) return false;
  for (let i = 0; i < a.seeds.length; i++) if (a.seeds[i] !== b.seeds[i]) return false;
  return true;
}
