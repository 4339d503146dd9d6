import type { Action } from '../engine/actions';
import type { Observation } from '../engine/observation';
import type { ScoreComponentDto } from '../episodes';
import type { BaselineResponseDto, BaselineTaskResultDto } from './dto/baseline.dto';
import { HeuristicAgent, type PolicyLimits } from './heuristic-policy';

/** Name and version of the built-in policy, as reports and episodes' `agent` name it. */
export const BASELINE_POLICY = 'heuristic-keywords-v2';

/** Every baseline episode uses this seed, so the table is the same on every run. */
export const BASELINE_SEED = 1;

/**
 * What the baseline needs of an environment: the server's own episodes service (`POST /baseline`, the CLI's
 * local mode) or a running server reached through the generated client (the CLI's `--url` mode).
 */
export interface BaselineEnvironment {
  reset(taskId: string, seed: number): Promise<{ episode_id: string; observation: Observation; done: boolean }>;
  step(episodeId: string, action: Action): Promise<{ observation: Observation; done: boolean }>;
  grade(episodeId: string): Promise<{ score: number | null; components: ScoreComponentDto[] | null }>;
}

/** The one baseline loop: the heuristic policy plays each task once, as a real, persisted episode. */
export async function runBaseline(env: BaselineEnvironment, taskIds: string[], limits: PolicyLimits): Promise<BaselineResponseDto> {
  const results: BaselineTaskResultDto[] = [];
  for (const taskId of taskIds) results.push(await runEpisode(env, taskId, limits));
  const mean = results.reduce((sum, r) => sum + r.score, 0) / results.length;
  return { policy: BASELINE_POLICY, seed: BASELINE_SEED, results, mean_score: Math.round(mean * 1000) / 1000 };
}

async function runEpisode(env: BaselineEnvironment, taskId: string, limits: PolicyLimits): Promise<BaselineTaskResultDto> {
  const agent = new HeuristicAgent(limits);
  const started = await env.reset(taskId, BASELINE_SEED);
  let { observation, done } = started;
  while (!done) ({ observation, done } = await env.step(started.episode_id, agent.act(observation)));
  const { score, components } = await env.grade(started.episode_id);
  // Withheld only while an episode runs, and this one has ended.
  if (score === null || components === null) throw new Error(`the grade of ended episode ${started.episode_id} was withheld`);
  return { task_id: taskId, episode_id: started.episode_id, score, steps: observation.step_count, components };
}
