import type { InspectExportInput } from './inspect-export-input';
import type { EvalPlan, EvalScorer, EvalSpec, InspectJsonObject, LogStart } from './inspect-log.types';
import {
  EPOCH_REDUCER,
  INSPECT_LOG_VERSION,
  SCORER_NAME,
  datasetSampleIds,
  modelName,
  passHatKMetricName,
} from './inspect-names';
import { finiteOrNull, isoInstant, toJsonObject } from './json-values';

type Run = InspectExportInput['run'];

/**
 * A run as Inspect's EvalSpec: the task is "supportdesk/<run name>", its version the grader version, its id the
 * run's config hash; the dataset is the run's (family, seed) pairs and the trials are the epochs; the solver is
 * the agent. What Inspect has no field for (split, feedback, generator versions, success threshold) is in the
 * metadata under "supportdesk"; the run's own metadata under "run".
 */
export function evalSpec(run: Run, passHatKs: readonly number[] = []): EvalSpec {
  const sampleIds = datasetSampleIds(run);
  const taskArgs: InspectJsonObject = {
    split: run.split,
    feedback: run.feedback,
    families: [...run.families],
    seeds: [...run.seeds],
    trials: run.trials,
  };
  return {
    eval_id: run.run_id,
    run_id: run.run_id,
    created: isoInstant(run.created_at),
    task: `supportdesk/${run.name}`,
    task_id: run.config_hash,
    task_version: run.grader_version,
    task_display_name: run.name,
    task_attribs: {},
    task_args: taskArgs,
    task_args_passed: { ...taskArgs },
    solver: run.agent,
    tags: runTags(run),
    dataset: { name: `supportdesk-${run.split}`, samples: sampleIds.length, sample_ids: sampleIds, shuffled: false },
    model: modelName(run),
    model_generate_config: {},
    model_args: {},
    config: { epochs: run.trials, epochs_reducer: [EPOCH_REDUCER] },
    packages: { supportdesk: run.server_version },
    metadata: {
      supportdesk: {
        run_id: run.run_id,
        agent: run.agent,
        model: run.model,
        split: run.split,
        feedback: run.feedback,
        config_hash: run.config_hash,
        grader_version: run.grader_version,
        generator_versions: { ...run.generator_versions },
        success_threshold: finiteOrNull(run.success_threshold),
        server_version: run.server_version,
        status: run.status,
        completed_at: run.completed_at === null ? null : isoInstant(run.completed_at),
      },
      run: toJsonObject(run.metadata),
    },
    scorers: [scorer(run, passHatKs)],
  };
}

/** The run's tags (Inspect shows them as chips): its split and feedback mode. */
export function runTags(run: Run): string[] {
  return [`feedback:${run.feedback}`, `split:${run.split}`];
}

function scorer(run: Run, passHatKs: readonly number[]): EvalScorer {
  const threshold = finiteOrNull(run.success_threshold);
  return {
    name: SCORER_NAME,
    options: { grader_version: run.grader_version, success_threshold: threshold },
    metrics: [
      { name: 'mean' },
      { name: 'success_rate', options: { threshold } },
      ...passHatKs.map((k) => ({ name: passHatKMetricName(k), options: { k } })),
    ],
  };
}

/** The plan: one step, the agent. */
export function evalPlan(run: Run): EvalPlan {
  return { name: 'plan', steps: [{ solver: run.agent, params: {}, params_passed: {} }], config: {} };
}

/** `_journal/start.json`: what Inspect's recorder writes when an eval starts. */
export function logStart(run: Run, passHatKs: readonly number[] = []): LogStart {
  return { version: INSPECT_LOG_VERSION, eval: evalSpec(run, passHatKs), plan: evalPlan(run) };
}
