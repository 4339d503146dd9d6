import { createSupportDeskClient } from '../client/supportdesk-client';
import type { Observation } from '../engine/observation';
import { BASELINE_SEED } from './baseline.service';
import type { BaselineResponseDto, BaselineTaskResultDto } from './dto/baseline.dto';
import { HeuristicAgent } from './heuristic-policy';

/**
 * The baseline against a running server (`npm run baseline -- --url http://…`), through the generated client:
 * the same policy and seed as POST /baseline, as episodes of the key's tenant.
 */
export async function runRemoteBaseline(url: string, apiKey?: string): Promise<{ report: BaselineResponseDto; difficulties: Record<string, string> }> {
  const client = createSupportDeskClient(url, { apiKey });
  const ok = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
    if (result.data === undefined) throw new Error(`${result.response.url} answered ${result.response.status}: ${JSON.stringify(result.error)}`);
    return result.data;
  };
  const { tasks } = ok(await client.GET('/tasks'));
  const schema = ok(await client.GET('/action_schema')) as { $defs: Record<string, { properties: Record<string, { maxLength?: number }> }> };
  const limits = {
    maxMessageLength: schema.$defs.SendReplyAction.properties.message.maxLength ?? 2000,
    maxQueryLength: schema.$defs.SearchPolicyAction.properties.query.maxLength ?? 200,
  };
  const results: BaselineTaskResultDto[] = [];
  for (const task of tasks) {
    const agent = new HeuristicAgent(limits);
    const started = ok(await client.POST('/reset', { body: { task_id: task.id, seed: BASELINE_SEED, agent: 'heuristic-keywords-v2' } }));
    // The wire observation is the engine's observation serialized; the policy reads it as such.
    let observation = started.observation as unknown as Observation;
    let done = started.done;
    while (!done) {
      const next = ok(await client.POST('/step', { body: { episode_id: started.episode_id, action: agent.act(observation) } }));
      observation = next.observation as unknown as Observation;
      done = next.done;
    }
    const grade = ok(await client.POST('/grader', { body: { episode_id: started.episode_id } }));
    results.push({ task_id: task.id, episode_id: started.episode_id, score: grade.score, steps: observation.step_count, components: grade.components });
  }
  const mean = results.reduce((sum, r) => sum + r.score, 0) / results.length;
  return {
    report: { policy: 'heuristic-keywords-v2', seed: BASELINE_SEED, results, mean_score: Math.round(mean * 1000) / 1000 },
    difficulties: Object.fromEntries(tasks.map((t) => [t.id, t.difficulty])),
  };
}
