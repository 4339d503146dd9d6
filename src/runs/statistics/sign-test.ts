import type { SignTest } from './types';

/**
 * The exact two-sided sign test of "neither run is better": under it each untied seed favours A with probability
 * 1/2, so the p-value is twice the binomial tail of the smaller count, capped at 1. Ties carry no sign and are
 * dropped, as the test prescribes; with no untied seed there is nothing to test (p_value null).
 */
export function signTest(aBetter: number, bBetter: number, ties: number): SignTest {
  const untied = aBetter + bBetter;
  const pValue = untied === 0 ? null : Math.min(1, 2 * lowerTail(Math.min(aBetter, bBetter), untied));
  return { a_better: aBetter, b_better: bBetter, ties, p_value: pValue };
}

/** P(X <= at) for X ~ Binomial(trials, 1/2), summed in logs: 2^-trials underflows a double past 1,074 trials. */
function lowerTail(at: number, trials: number): number {
  const logHalfPower = -trials * Math.LN2;
  let logChoose = 0; // log C(trials, 0)
  let tail = 0;
  for (let i = 0; i <= at; i++) {
    tail += Math.exp(logChoose + logHalfPower);
    logChoose += Math.log((trials - i) / (i + 1));
  }
  return tail;
}
