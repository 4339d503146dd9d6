import type { InspectExportInput } from './inspect-export-input';
import type {
  EvalLogHeader,
  EvalMetric,
  EvalResults,
  EvalSample,
  EvalStats,
  EvalStatus,
  ModelUsage,
} from './inspect-log.types';
import { EPOCH_REDUCER, INSPECT_LOG_VERSION, SCORER_NAME, modelName, passHatKMetricName } from './inspect-names';
import { evalPlan, evalSpec } from './eval-start';
import { countOrNull, finiteOrNull, isoInstant } from './json-values';

type Run = InspectExportInput['run'];
type Results = InspectExportInput['results'];

/** What header.json needs to know of the samples, counted as they stream past. */
export class SampleTally {
  scored = 0;
  unscored = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  private withUsage = 0;

  add(sample: EvalSample): void {
    if (sample.scores?.[SCORER_NAME] === undefined) this.unscored += 1;
    else this.scored += 1;
    for (const usage of Object.values(sample.model_usage)) {
      this.inputTokens += usage.input_tokens;
      this.outputTokens += usage.output_tokens;
      this.withUsage += 1;
    }
  }

  /** The run's token usage, or null when no sample reported any. */
  usage(): ModelUsage | null {
    if (this.withUsage === 0) return null;
    return {
      input_tokens: this.inputTokens,
      output_tokens: this.outputTokens,
      total_tokens: this.inputTokens + this.outputTokens,
    };
  }
}

/** A complete run is a successful eval; an open one is still running ("started"). */
export function evalStatus(run: Run): EvalStatus {
  return run.status === 'complete' ? 'success' : 'started';
}

/** The pass^k metrics that have a value (a null estimate is left out: a metric is a number). */
export function reportedPassHatKs(results: Results): number[] {
  return results.pass_hat_k.filter((entry) => finiteOrNull(entry.estimate) !== null).map((entry) => entry.k);
}

/**
 * The run's results as Inspect's: one score, the SupportDesk scorer's, whose metrics are the mean score, the
 * success rate and pass^k for each k with an estimate. A metric without a value is left out.
 */
export function evalResults(run: Run, results: Results, tally: SampleTally): EvalResults {
  const threshold = finiteOrNull(run.success_threshold);
  const metrics: Record<string, EvalMetric> = {};
  const mean = finiteOrNull(results.mean_score);
  if (mean !== null) metrics.mean = { name: 'mean', value: mean, params: {} };
  const successRate = finiteOrNull(results.success_rate);
  if (successRate !== null) metrics.success_rate = { name: 'success_rate', value: successRate, params: { threshold } };
  for (const { k, estimate } of results.pass_hat_k) {
    const value = finiteOrNull(estimate);
    if (value === null) continue;
    const name = passHatKMetricName(k);
    metrics[name] = { name, value, params: { k } };
  }
  return {
    total_samples: countOrNull(results.cells_total) ?? 0,
    completed_samples: countOrNull(results.cells_finished) ?? 0,
    scores: [
      {
        name: SCORER_NAME,
        scorer: SCORER_NAME,
        ...(run.trials > 1 ? { reducer: EPOCH_REDUCER } : {}),
        scored_samples: tally.scored,
        unscored_samples: tally.unscored,
        params: {},
        metrics,
        metadata: { success_threshold: threshold },
      },
    ],
  };
}

export function evalStats(run: Run, tally: SampleTally): EvalStats {
  const usage = tally.usage();
  return {
    started_at: isoInstant(run.created_at),
    completed_at: run.completed_at === null ? '' : isoInstant(run.completed_at),
    model_usage: usage === null ? {} : { [modelName(run)]: usage },
    role_usage: {},
    connection_limit_history: [],
  };
}

/** header.json: the EvalLog without its samples, written last, when the samples have been counted. */
export function evalLogHeader(input: Pick<InspectExportInput, 'run' | 'results'>, tally: SampleTally): EvalLogHeader {
  const spec = evalSpec(input.run, reportedPassHatKs(input.results));
  return {
    version: INSPECT_LOG_VERSION,
    status: evalStatus(input.run),
    eval: spec,
    plan: evalPlan(input.run),
    results: evalResults(input.run, input.results, tally),
    stats: evalStats(input.run, tally),
    invalidated: false,
    // EvalLog.recompute_tags_and_metadata: the log's tags and metadata are the eval's (no edits yet).
    tags: [...(spec.tags ?? [])].sort(),
    metadata: spec.metadata ?? {},
  };
}
