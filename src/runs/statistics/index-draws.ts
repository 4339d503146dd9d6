import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { RandomGenerator } from 'pure-rand/types/RandomGenerator';

const HALF = 0x1_0000;

/**
 * Uniform indices in [0, n) for the bootstrap, two from each 32-bit output of the generator. A resample draws once
 * per seed, so the generator is most of the bootstrap's cost, and halving its calls roughly halves it; 16 bits
 * are ample for a family's seeds. Each half is mapped by Lemire's multiply-shift with its rejection step, so
 * every index is exactly equally likely, and the index comes from a half's top bits (the low bits of a
 * xoroshiro128+ output are its weakest). Beyond 65,536 choices it falls back to pure-rand's uniformInt.
 */
export class IndexDraws {
  /** The unused low half of the last output, or -1. */
  private spare = -1;

  constructor(private readonly rng: RandomGenerator) {}

  /** An index in [0, n), n >= 1. */
  below(n: number): number {
    if (n > HALF) return uniformInt(this.rng, 0, n - 1);
    // 2^16 mod n of the 2^16 half values would favour the smallest indices: those products are redrawn.
    const rejectBelow = HALF % n;
    for (;;) {
      const product = this.nextHalf() * n;
      if ((product & 0xffff) >= rejectBelow) return product >>> 16;
    }
  }

  private nextHalf(): number {
    if (this.spare >= 0) {
      const half = this.spare;
      this.spare = -1;
      return half;
    }
    const output = this.rng.next();
    this.spare = output & 0xffff;
    return output >>> 16;
  }
}
