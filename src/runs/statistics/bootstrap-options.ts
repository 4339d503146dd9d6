import type { BootstrapOptions } from './types';

export const DEFAULT_RESAMPLES = 2000;
/**
 * The resampling seed when the caller gives none. Fixed (it is issue 25's number, nothing more) so that the same
 * cells always give the same intervals; changing it would move every published interval a little, so it must not
 * change silently.
 */
export const DEFAULT_BOOTSTRAP_SEED = 25;
export const DEFAULT_LEVEL = 0.95;

export interface ResolvedBootstrapOptions {
  resamples: number;
  seed: number;
  level: number;
}

export function resolveBootstrapOptions(options: BootstrapOptions): ResolvedBootstrapOptions {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const level = options.level ?? DEFAULT_LEVEL;
  // A standard error needs two resamples; a cap keeps a typo from allocating gigabytes.
  if (!Number.isSafeInteger(resamples) || resamples < 2 || resamples > 1_000_000) {
    throw new RangeError(`resamples must be an integer in 2..1000000, got ${resamples}`);
  }
  // The generator keeps 32 bits of its seed: a wider one would silently share a stream with another.
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 0xffff_ffff) {
    throw new RangeError(`seed must be an integer in 0..4294967295, got ${seed}`);
  }
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be strictly between 0 and 1, got ${level}`);
  return { resamples, seed, level };
}
