import type { EvalSample, EvalSampleReductions } from './inspect-log.types';
import { EPOCH_REDUCER, SCORER_NAME } from './inspect-names';

/**
 * reductions.json: each sample's score reduced over its epochs (trials) with the mean, as Inspect's "mean"
 * reducer does, skipping epochs without a score (Inspect's reducers skip its NaN "unscored" sentinel). A sample
 * none of whose epochs has a score is left out: there is no number to write.
 *
 * Fed one sample at a time; holds a sum and a count per sample id, never the samples.
 */
export class EpochReductions {
  private readonly bySample = new Map<string, { sum: number; count: number }>();

  constructor(datasetOrder: readonly string[] = []) {
    for (const id of datasetOrder) this.bySample.set(id, { sum: 0, count: 0 });
  }

  add(sample: EvalSample): void {
    const value = sample.scores?.[SCORER_NAME]?.value;
    let entry = this.bySample.get(sample.id);
    if (entry === undefined) {
      entry = { sum: 0, count: 0 };
      this.bySample.set(sample.id, entry);
    }
    if (value !== undefined && Number.isFinite(value)) {
      entry.sum += value;
      entry.count += 1;
    }
  }

  /** One reduction, the SupportDesk scorer's, over the samples in dataset order (then any other seen). */
  reductions(): EvalSampleReductions[] {
    const samples = [...this.bySample]
      .filter(([, entry]) => entry.count > 0)
      .map(([id, entry]) => ({ value: entry.sum / entry.count, sample_id: id, history: [] as never[] }));
    return [{ scorer: SCORER_NAME, reducer: EPOCH_REDUCER, samples }];
  }
}
