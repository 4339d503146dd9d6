import { createSupportDeskClient } from '../../client/supportdesk-client';
import type { BaselineEnvironment } from '../../src/baseline';
import { BASELINE_POLICY, baselineRunRequest } from '../../src/baseline';
import type { Observation } from '../../src/engine/observation';

/**
 * A running server as the baseline's environment, through the generated client (episodes of the key's tenant). An
 * agent key is never shown a test-split episode's grade: with a reader key of the same tenant the grade is read
 * with it instead; without one it stays withheld (null), and the table says so.
 */
export async function remoteEnvironment(url: string, apiKey?: string, readerKey?: string) {
  const client = createSupportDeskClient(url, { apiKey });
  const reader = readerKey === undefined ? null : createSupportDeskClient(url, { apiKey: readerKey });
  const ok = <T>(result: { data?: T; error?: unknown; response: Response }): T => {
    if (result.data === undefined) throw new Error(`${result.response.url} answered ${result.response.status}: ${JSON.stringify(result.error)}`);
    return result.data;
  };
  const { tasks } = ok(await client.GET('/tasks'));
  const schema = ok(await client.GET('/action_schema')) as { $defs: Record<string, { properties: Record<string, { maxLength?: number }> }> };
  // The wire observation is the engine's observation serialized; the policy reads it as such.
  const asObservation = (value: unknown) => value as Observation;
  const environment: BaselineEnvironment = {
    async reset(taskId, seed, variant, runId) {
      const body = runId === undefined ? { task_id: taskId, seed, variant, agent: BASELINE_POLICY } : { run_id: runId, task_id: taskId, seed, trial: 0 };
      const started = ok(await client.POST('/reset', { body }));
      return { episode_id: started.episode_id, observation: asObservation(started.observation), done: started.done };
    },
    async step(episodeId, action) {
      const next = ok(await client.POST('/step', { body: { episode_id: episodeId, action } }));
      return { observation: asObservation(next.observation), done: next.done };
    },
    async grade(episodeId) {
      const graded = ok(await client.POST('/grader', { body: { episode_id: episodeId } }));
      if (graded.score !== null || reader === null) return graded;
      return ok(await reader.POST('/grader', { body: { episode_id: episodeId } }));
    },
  };
  /** A new evaluation run for the baseline's test split (baselineRunRequest); its id. */
  const createRun = async (taskIds: string[]): Promise<string> => ok(await client.POST('/runs', { body: baselineRunRequest(taskIds) })).run_id;
  return {
    environment,
    createRun,
    taskIds: tasks.map((t) => t.id),
    difficulties: Object.fromEntries(tasks.map((t) => [t.id, t.difficulty])),
    limits: {
      maxMessageLength: schema.$defs.SendReplyAction.properties.message.maxLength ?? 2000,
      maxQueryLength: schema.$defs.SearchPolicyAction.properties.query.maxLength ?? 200,
    },
  };
}
