/** Binomial coefficient C(n, k) as a float (exact for the small n of evaluation runs). */
export function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * pass^k as in tau-bench: the chance that k trials drawn from a task's n all succeed, C(c, k) / C(n, k) for c
 * successes, averaged over tasks. Tasks with fewer than k trials are left out.
 */
export function passHatK(successesByTask: { trials: number; successes: number }[], k: number): number {
  const eligible = successesByTask.filter((t) => t.trials >= k);
  if (eligible.length === 0) return Number.NaN;
  return eligible.reduce((sum, t) => sum + choose(t.successes, k) / choose(t.trials, k), 0) / eligible.length;
}
