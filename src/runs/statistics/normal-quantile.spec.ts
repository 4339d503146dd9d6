import { normalQuantile } from './normal-quantile';

describe('normalQuantile', () => {
  it.each([
    // Reference values (R's qnorm).
    [0.975, 1.959963984540054],
    [0.8, 0.8416212335729143],
    [0.5, 0],
    [0.995, 2.5758293035489],
    [0.001, -3.090232306167813],
    [1e-10, -6.361340902404056],
  ])('the %p quantile is %p', (probability, z) => {
    expect(normalQuantile(probability)).toBeCloseTo(z, 7);
  });

  it('is antisymmetric about 1/2', () => {
    for (const p of [0.01, 0.1, 0.3, 0.49]) expect(normalQuantile(1 - p)).toBeCloseTo(-normalQuantile(p), 9);
  });

  it('refuses probabilities with no finite quantile', () => {
    for (const p of [0, 1, -0.1, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});
