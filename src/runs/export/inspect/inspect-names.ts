import type { InspectExportInput } from './inspect-export-input';

/** How a run's words become Inspect's: one scorer, samples per (family, seed), epochs per trial. */

/** Inspect's log format version (LOG_SCHEMA_VERSION in inspect_ai/_util/constants.py). */
export const INSPECT_LOG_VERSION = 2;

/** The one scorer: the SupportDesk grader. */
export const SCORER_NAME = 'supportdesk';

/** The epoch reducer named in the config and the reductions: a sample's score is the mean of its trials'. */
export const EPOCH_REDUCER = 'mean';

/** A cell's sample id: Inspect's sample is a (family, seed) pair; its trials are the sample's epochs. */
export function sampleId(taskId: string, seed: number): string {
  return `${taskId}:${seed}`;
}

/** Inspect's epochs count from 1; trials from 0. */
export function epochOf(trial: number): number {
  return trial + 1;
}

/** The member of the archive that holds a sample (`_sample_filename` in inspect_ai/log/_recorders/eval.py). */
export function sampleFileName(id: string, epoch: number): string {
  return `samples/${id}_epoch_${epoch}.json`;
}

/** The run's model, or the agent when the run names none. */
export function modelName(run: InspectExportInput['run']): string {
  return run.model !== null && run.model !== '' ? run.model : run.agent;
}

/** The run's sample ids in dataset order: every family, then every seed. */
export function datasetSampleIds(run: InspectExportInput['run']): string[] {
  return run.families.flatMap((family) => run.seeds.map((seed) => sampleId(family, seed)));
}

/** The metric of pass^k, by k. */
export function passHatKMetricName(k: number): string {
  return `pass^${k}`;
}

/**
 * A file name for the archive in Inspect's pattern, `<created>_<task>_<id>.eval` (the log viewer lists a folder's
 * `.eval` files by it): the creation time with ':' as '-', the task and the run id kept to letters, digits, '-'
 * and '_'.
 */
export function inspectEvalFileName(run: InspectExportInput['run']): string {
  const safe = (text: string): string => text.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
  const created = new Date(run.created_at);
  const stamp = Number.isNaN(created.getTime())
    ? 'unknown'
    : created.toISOString().replace(/\.\d+Z$/, 'Z').replace(/:/g, '-');
  return `${stamp}_supportdesk-${safe(run.name)}_${safe(run.run_id)}.eval`;
}
