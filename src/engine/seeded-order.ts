import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** Fisher-Yates shuffle driven by a seeded generator: the same seed gives the same order on every machine. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const rng = xoroshiro128plus(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = uniformInt(rng, 0, i);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
