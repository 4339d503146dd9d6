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
  reset(taskId: string, seed: number, variant: Variant): Promise<{ episode_id: string; observation: Observation; done: boolean }>;
  step(episodeId: string, action: Action): Promise<{ observation: Observation; done: boolean }>;
  grade(episodeId: string): Promise<{ score: number | null; components: ScoreComponentDto[] | null }>;
}

/**
 * The one baseline loop: the heuristic policy plays each task's canonical instance and the first seeds of each split,
 * as real, persisted episodes (test-split ones run with feedback "final", as every test episode does).
 */
export async function runBaseline(env: BaselineEnvironment, taskIds: string[], limits: PolicyLimits): Promise<BaselineResponseDto> {
  const episodes: BaselineEpisodeResultDto[] = [];
  const results: BaselineTaskResultDto[] = [];
  const mean = (xs: number[]) => Math.round((1000 * xs.reduce((a, b) => a + b, 0)) / xs.length) / 1000;
  for (const taskId of taskIds) {
    const canonical = await runEpisode(env, taskId, BASELINE_SEED, 'canonical', limits);
    const runs = { train: [] as BaselineEpisodeResultDto[], test: [] as BaselineEpisodeResultDto[] };
    for (const split of SPLITS) {
      for (let n = 0; n < BASELINE_SEEDS_PER_SPLIT; n++) runs[split].push(await runEpisode(env, taskId, nthSeedOf(split, n), 'generated', limits));
    }
    episodes.push(canonical, ...runs.train, ...runs.test);
    results.push({ task_id: taskId, canonical: canonical.score, train: mean(runs.train.map((r) => r.score)), test: mean(runs.test.map((r) => r.score)) });
  }
  return { policy: BASELINE_POLICY, seeds_per_split: BASELINE_SEEDS_PER_SPLIT, results, episodes, mean_score: mean(results.map((r) => r.test)) };
}

async function runEpisode(env: BaselineEnvironment, taskId: string, seed: number, variant: Variant, limits: PolicyLimits): Promise<BaselineEpisodeResultDto> {
  const agent = new HeuristicAgent(limits);
  const started = await env.reset(taskId, seed, variant);
  let { observation, done } = started;
  while (!done) ({ observation, done } = await env.step(started.episode_id, agent.act(observation)));
  const { score, components } = await env.grade(started.episode_id);
  // Withheld only while an episode runs, and this one has ended.
  if (score === null || components === null) throw new Error(`the grade of ended episode ${started.episode_id} was withheld`);
  const split = variant === 'canonical' ? null : splitOf(seed);
  return { task_id: taskId, variant, split, seed, episode_id: started.episode_id, score, steps: observation.step_count, components };
}
