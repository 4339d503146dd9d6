import fc from 'fast-check';
import { OrderStatistics } from './order-statistic';

/** Type 7 quantile from a full sort: what selection must agree with. */
function sortedQuantile(sample: number[], probability: number): number {
  const sorted = [...sample].sort((a, b) => a - b);
  const position = (sorted.length - 1) * probability;
  const below = Math.floor(position);
  const above = Math.min(below + 1, sorted.length - 1);
  return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
}

describe('OrderStatistics', () => {
  it('gives the quantiles a full sort gives, ties and repeats included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ min: -1, max: 1, noNaN: true }), fc.constantFrom(0, 0.5, 1)), {
          minLength: 1,
          maxLength: 300,
        }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 4 }),
        (sample, probabilities) => {
          const order = new OrderStatistics(Float64Array.from(sample));
          for (const probability of probabilities) {
            expect(order.quantile(probability)).toBeCloseTo(sortedQuantile(sample, probability), 12);
          }
        },
      ),
      { seed: 25 },
    );
  });

  it('leaves the sample it was given as it was', () => {
    const sample = Float64Array.from([3, 1, 2]);
    new OrderStatistics(sample).quantile(0.5);
    expect([...sample]).toEqual([3, 1, 2]);
  });
});
