import type { AddressInfo } from 'node:net';
import { runBaseline } from '../src/baseline';
import { remoteEnvironment } from '../tools/cli/remote-environment';
import { createSupportDeskClient, type Action, type SupportDeskClient } from '../client/supportdesk-client';
import { SOLUTIONS } from './fixtures/solutions';
import { startTestApp } from './support/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let client: SupportDeskClient;

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen(0, '127.0.0.1');
  client = createSupportDeskClient(`http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`);
});
afterAll(() => ctx.app.close());

describe.each(Object.keys(SOLUTIONS))('%s through the generated client', (taskId) => {
  it('runs a full episode with type-checked actions and reads the grade', async () => {
    // The fixture's actions are the engine's Action type; assigning them to the client's type checks that the
    // generated schema and the engine agree.
    const actions: Action[] = SOLUTIONS[taskId].actions;
    const reset = await client.POST('/reset', { body: { variant: 'canonical', task_id: taskId, seed: 17 } });
    expect(reset.response.status).toBe(200);
    const episodeId = reset.data!.episode_id;
    let done = false;
    for (const action of actions) {
      const stepped = await client.POST('/step', { body: { episode_id: episodeId, action } });
      expect(stepped.error).toBeUndefined();
      done = stepped.data!.done;
    }
    expect(done).toBe(true);
    const graded = await client.POST('/grader', { body: { episode_id: episodeId } });
    expect(graded.data!.score).toBe(1);
    const state = await client.GET('/state/{episode_id}', { params: { path: { episode_id: episodeId } } });
    expect(state.data!.actions.map((a) => a.step)).toEqual(actions.map((_, i) => i + 1));
  });
});

it('surfaces the service error body on 4xx, typed', async () => {
  const missing = await client.GET('/state/{episode_id}', { params: { path: { episode_id: 'nope' } } });
  expect(missing.response.status).toBe(404);
  expect(missing.error).toMatchObject({ statusCode: 404, error: 'Not Found' });
});

it('the baseline in --url mode runs through the client, fills an evaluation run with its test split, and scores exactly as POST /baseline', async () => {
  const url = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  const remote = await remoteEnvironment(url);
  // One family keeps this within npm test's budget; every family takes the same path.
  const taskIds = remote.taskIds.slice(0, 1);
  const runId = await remote.createRun(taskIds);
  const report = await runBaseline(remote.environment, taskIds, remote.limits, runId);
  const local = await client.POST('/baseline', { body: { task_ids: taskIds } });
  expect(report.episodes.map((r) => [r.task_id, r.seed, r.score, r.steps])).toEqual(local.data!.episodes.map((r) => [r.task_id, r.seed, r.score, r.steps]));
  expect(report.mean_score).toBe(local.data!.mean_score);

  const run = (await client.GET('/runs/{run_id}', { params: { path: { run_id: runId } } })).data!;
  expect(run).toMatchObject({ status: 'complete', agent: 'heuristic-reading-v3', split: 'test', trials: 1, progress: { cells: 10, finished: 10 } });
  // The run's per-family mean is the table's test mean, episode for episode.
  for (const result of report.results) {
    const family = run.results!.families.find((f) => f.task_id === result.task_id)!;
    expect([result.task_id, Number(family.mean_score.estimate!.toFixed(3))]).toEqual([result.task_id, result.test]);
  }
  const cells = (await client.GET('/runs/{run_id}/cells', { params: { path: { run_id: runId }, query: { limit: 100 } } })).data!.cells;
  expect(cells.map((c) => c.episode_id).sort()).toEqual(report.episodes.filter((e) => e.split === 'test').map((e) => e.episode_id).sort());
});

