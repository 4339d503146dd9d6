/**
 * pass^k: the chance that k trials of the same seed, drawn without replacement from the n run, all succeed,
 * C(c,k)/C(n,k). Its expectation is p^k for a seed whose trials succeed with probability p, so it estimates
 * "succeeds every time" without bias, where (c/n)^k would not. Null when fewer than k trials were run (k > n):
 * such a seed says nothing about k trials in a row.
 */
export function passHatK(successes: number, trials: number, k: number): number | null {
  assertCount('trials', trials);
  assertCount('successes', successes);
  assertCount('k', k);
  if (successes > trials) throw new RangeError(`successes (${successes}) exceed trials (${trials})`);
  if (k < 1) throw new RangeError('k must be at least 1');
  if (k > trials) return null;
  // C(c,k)/C(n,k) as the product of k ratios: no factorial ever leaves the range of a double, and c = n gives
  // exactly 1, c < k exactly 0 (one factor is 0).
  let ratio = 1;
  for (let i = 0; i < k; i++) ratio *= (successes - i) / (trials - i);
  return ratio;
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
  }
}
