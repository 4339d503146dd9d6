export type {
  BootstrapOptions,
  CellOutcome,
  GroupSummary,
  Interval,
  MethodStatement,
  PairedComparison,
  PairedMethodStatement,
  PairedSummary,
  RunSummary,
  SignTest,
  SummarizeOptions,
  Verdict,
} from './types';
export { DEFAULT_BOOTSTRAP_SEED, DEFAULT_LEVEL, DEFAULT_RESAMPLES } from './bootstrap-options';
export { passHatK } from './pass-hat-k';
export { summarizeRun } from './summarize-run';
export { comparePaired } from './compare-paired';
export { formTiers } from './form-tiers';
