import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

type RandomGenerator = ReturnType<typeof xoroshiro128plus>;

/** MurmurHash3's 32-bit finaliser: every input bit affects every output bit. */
function mix32(value: number): number {
  let h = value | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}

/**
 * The random draws of one generated instance: seeded, so the same family and seed give the same instance on every
 * machine. Each family keeps the order of its draws fixed within a generator version (a new draw goes at the end,
 * or comes with a new version), since every draw shifts the ones after it.
 */
export class Draws {
  private readonly rng: RandomGenerator;

  constructor(seed: number, salt: number) {
    // The salt keeps a family's draws apart from the inbox order, which the engine draws from the same seed; the
    // mix spreads neighbouring seeds (2k and 2k+1) apart, whose first draws xoroshiro128+ would otherwise correlate.
    this.rng = xoroshiro128plus(mix32(seed ^ Math.imul(salt, 0x9e3779b1)));
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return uniformInt(this.rng, min, max);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }

  /** True with probability `numerator / denominator`. */
  chance(numerator: number, denominator: number): boolean {
    return this.int(1, denominator) <= numerator;
  }

  /** `count` different items, in draw order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    for (let i = 0; i < count && pool.length > 0; i++) out.push(pool.splice(this.int(0, pool.length - 1), 1)[0]);
    return out;
  }

  /** A string of `length` digits, the first not 0. */
  digits(length: number): string {
    let out = String(this.int(1, 9));
    while (out.length < length) out += String(this.int(0, 9));
    return out;
  }
}
