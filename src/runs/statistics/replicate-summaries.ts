import { OrderStatistics } from './order-statistic';
import type { Interval } from './types';

/**
 * The percentile interval: the central `level` share of the resampled estimates. The coverage simulation found
 * it covers at the nominal rate for these statistics at realistic run sizes, so nothing costlier (BCa,
 * studentised) is needed. Without replicates (no data, or no spread to estimate) the bounds are null.
 */
export function percentileInterval(estimate: number | null, replicates: Float64Array | null, level: number): Interval {
  if (estimate === null || replicates === null) return { estimate, low: null, high: null };
  const order = new OrderStatistics(replicates);
  const tail = (1 - level) / 2;
  // The estimate is the mean of the resampled estimates, so it lies inside the central share but for rounding:
  // 9 seeds of 0.7 resample to 0.7000000000000001. Widening by that last digit keeps low <= estimate <= high.
  return {
    estimate,
    low: Math.min(order.quantile(tail), estimate),
    high: Math.max(order.quantile(1 - tail), estimate),
  };
}

/** The standard deviation of the resampled estimates: the bootstrap's standard error of the estimate. */
export function standardError(replicates: Float64Array | null): number | null {
  if (replicates === null || replicates.length < 2) return null;
  let sum = 0;
  for (let i = 0; i < replicates.length; i++) sum += replicates[i];
  const mean = sum / replicates.length;
  let squares = 0;
  for (let i = 0; i < replicates.length; i++) squares += (replicates[i] - mean) ** 2;
  return Math.sqrt(squares / (replicates.length - 1));
}
