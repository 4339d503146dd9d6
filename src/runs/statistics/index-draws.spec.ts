import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { IndexDraws } from './index-draws';

function tally(n: number, draws: number, seed = 5): number[] {
  const draw = new IndexDraws(xoroshiro128plus(seed));
  const counts = new Array<number>(n).fill(0);
  for (let i = 0; i < draws; i++) counts[draw.below(n)]++;
  return counts;
}

describe('IndexDraws', () => {
  it('draws every index of [0, n) equally often', () => {
    // 200,000 draws over 20 indices: 10,000 each, give or take about 100.
    for (const count of tally(20, 200_000)) expect(Math.abs(count - 10_000)).toBeLessThan(500);
    expect(tally(1, 100)).toEqual([100]);
  });

  it('redraws the products that would favour some indices', () => {
    // For n = 40,000, multiply-shift maps two of the 65,536 half values to each of 25,536 indices and one to each
    // of the other 14,464; without the rejection step those indices would take 78% of the draws, not 64%.
    const n = 40_000;
    const doubled = (k: number): boolean => Math.ceil(((k + 1) * 65_536) / n) - Math.ceil((k * 65_536) / n) === 2;
    const counts = tally(n, 200_000);
    const share = counts.reduce((sum, count, k) => sum + (doubled(k) ? count : 0), 0) / 200_000;
    expect(share).toBeCloseTo(25_536 / 40_000, 2);
  });

  it('stays in range beyond 16 bits, and is deterministic', () => {
    const draw = new IndexDraws(xoroshiro128plus(1));
    for (let i = 0; i < 1000; i++) {
      const index = draw.below(1_000_003);
      expect(Number.isInteger(index) && index >= 0 && index < 1_000_003).toBe(true);
    }
    expect(tally(7, 1000, 9)).toEqual(tally(7, 1000, 9));
  });
});
