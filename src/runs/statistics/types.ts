/** One finished cell of a run, as the statistics read it. */
export interface CellOutcome {
  family: string;
  seed: number;
  trial: number;
  /** In [0, 1]. */
  score: number;
  success: boolean;
}

/** A point estimate and its interval; all three are null where there is no data to estimate from. */
export interface Interval {
  estimate: number | null;
  low: number | null;
  high: number | null;
}

export interface BootstrapOptions {
  /** Bootstrap resamples (default 2,000). */
  resamples?: number;
  /** Seed of the resampling (default DEFAULT_BOOTSTRAP_SEED); an unsigned 32-bit integer. */
  seed?: number;
  /** Confidence level of the intervals (default 0.95). */
  level?: number;
}

export interface SummarizeOptions extends BootstrapOptions {
  /** pass^k is reported for k = 1..maxK. */
  maxK: number;
}

/** How the figures were computed, stated beside them so a reader need not guess. */
export interface MethodStatement {
  resamples: number;
  seed: number;
  level: number;
  estimand: string;
  resampling: string;
}

export interface GroupSummary {
  cells: number;
  /** Seeds of the family; for the overall summary, the sum over families (a (family, seed) pair is one unit). */
  seeds: number;
  mean_score: Interval;
  success_rate: Interval;
  pass_hat_k: Array<{ k: number } & Interval>;
  flip_rate: number | null;
}

export interface RunSummary {
  overall: GroupSummary;
  families: Record<string, GroupSummary>;
  method: MethodStatement;
}

export type Verdict = 'a_better' | 'b_better' | 'within_noise';

export interface SignTest {
  a_better: number;
  b_better: number;
  ties: number;
  p_value: number | null;
}

export interface PairedSummary {
  pairs: number;
  /** As in GroupSummary: seeds with at least one pair; overall, the sum over families. */
  seeds: number;
  mean_a: number | null;
  mean_b: number | null;
  /** Mean score A − B, weighted like summarizeRun. */
  difference: Interval;
  sign_test: SignTest;
  verdict: Verdict;
  minimum_detectable_difference: number | null;
}

export interface PairedMethodStatement extends MethodStatement {
  sign_test: string;
  minimum_detectable_difference: string;
}

export interface PairedComparison {
  overall: PairedSummary;
  /** Every family present in either run (one with no pairs has pairs: 0 and null figures). */
  families: Record<string, PairedSummary>;
  /** Cells present in one run only: left out of every figure, counted here. */
  unpaired_a: number;
  unpaired_b: number;
  method: PairedMethodStatement;
}
