import type { Action } from '../engine/actions';
import type { Observation } from '../engine/observation';
import type { ScoreComponentDto } from '../episodes';
import { SPLITS, nthSeedOf, splitOf } from '../families';
import type { Variant } from '../episodes';
import type { BaselineEpisodeResultDto, BaselineResponseDto, BaselineTaskResultDto } from './dto/baseline.dto';
import { HeuristicAgent, type PolicyLimits } from './heuristic-policy';

/** Name and version of the built-in policy, as reports and episodes' `agent` name it. */
export const BASELINE_POLICY = 'heuristic-reading-v3';

/** The canonical instance's seed (it only orders the inbox), so the table is the same on every run. */
export const BASELINE_SEED = 1;
/** Seeds of each split played per task: the split's first ones, the same on every run. */
export const BASELINE_SEEDS_PER_SPLIT = 10;

/**
 * What the baseline needs of an environment: the server's own episodes service (`POST /baseline`, the CLI's
 * local mode) or a running server reached through the generated client (the CLI's `--url` mode).
 */
export interface BaselineEnvironment {
  /** With `runId`, the episode fills that evaluation run's cell (the task, the seed, trial 0). */
  reset(taskId: string, seed: number, variant: Variant, runId?: string): Promise<{ episode_id: string; observation: Observation; done: boolean }>;
  step(episodeId: string, action: Action): Promise<{ observation: Observation; done: boolean }>;
  grade(episodeId: string): Promise<{ score: number | null; components: ScoreComponentDto[] | null }>;
}

/**
 * The one baseline loop: the heuristic policy plays each task's canonical instance and the first seeds of each split,
 * as real, persisted episodes (test-split ones run with feedback "final", as every test episode does). Played with an
 * agent key, the test-split grades are withheld, as they are from any agent key: those episodes' scores and
 * components, the tasks' test means and the overall mean are null (a reader key reads them from the episodes).
 * With `testRunId` (an evaluation run of these tasks on the first BASELINE_SEEDS_PER_SPLIT test seeds, one trial:
 * `baselineRunRequest`), the test-split episodes fill that run's cells, so the baseline stands on the leaderboard.
 */
export async function runBaseline(env: BaselineEnvironment, taskIds: string[], limits: PolicyLimits, testRunId?: string): Promise<BaselineResponseDto> {
  const episodes: BaselineEpisodeResultDto[] = [];
  const results: BaselineTaskResultDto[] = [];
  for (const taskId of taskIds) {
    const canonical = await runEpisode(env, taskId, BASELINE_SEED, 'canonical', limits);
    const runs = { train: [] as BaselineEpisodeResultDto[], test: [] as BaselineEpisodeResultDto[] };
    for (const split of SPLITS) {
      const runId = split === 'test' ? testRunId : undefined;
      for (let n = 0; n < BASELINE_SEEDS_PER_SPLIT; n++) runs[split].push(await runEpisode(env, taskId, nthSeedOf(split, n), 'generated', limits, runId));
    }
    episodes.push(canonical, ...runs.train, ...runs.test);
    results.push({
      task_id: taskId,
      canonical: shown(canonical.score),
      train: mean(runs.train.map((r) => shown(r.score))),
      test: meanOrWithheld(runs.test.map((r) => r.score)),
    });
  }
  return { policy: BASELINE_POLICY, seeds_per_split: BASELINE_SEEDS_PER_SPLIT, results, episodes, mean_score: meanOrWithheld(results.map((r) => r.test)) };
}

const mean = (xs: number[]) => Math.round((1000 * xs.reduce((a, b) => a + b, 0)) / xs.length) / 1000;

/** The mean, or null when any of the scores was withheld (a mean of the others would be a different figure). */
function meanOrWithheld(xs: (number | null)[]): number | null {
  return xs.some((x) => x === null) ? null : mean(xs as number[]);
}

/** Only test-split grades are ever withheld: the canonical and train ones are always there. */
function shown(score: number | null): number {
  if (score === null) throw new Error('a canonical or train-split grade was withheld');
  return score;
}

/** The evaluation run the baseline's test split fills (POST /runs): its tasks on the split's first seeds, one trial. */
export function baselineRunRequest(taskIds: string[]) {
  return { name: `${BASELINE_POLICY} baseline`, agent: BASELINE_POLICY, families: taskIds, split: 'test' as const, seed_count: BASELINE_SEEDS_PER_SPLIT, trials: 1 };
}

async function runEpisode(env: BaselineEnvironment, taskId: string, seed: number, variant: Variant, limits: PolicyLimits, runId?: string): Promise<BaselineEpisodeResultDto> {
  const agent = new HeuristicAgent(limits);
  const started = await env.reset(taskId, seed, variant, runId);
  let { observation, done } = started;
  while (!done) ({ observation, done } = await env.step(started.episode_id, agent.act(observation)));
  const { score, components } = await env.grade(started.episode_id);
  const split = variant === 'canonical' ? null : splitOf(seed);
  // This episode has ended, so its grade is withheld only from an agent key, and only on the test split.
  if ((score === null || components === null) && split !== 'test') throw new Error(`the grade of ended episode ${started.episode_id} was withheld`);
  return { task_id: taskId, variant, split, seed, episode_id: started.episode_id, score, steps: observation.step_count, components };
}
