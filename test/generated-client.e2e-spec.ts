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

it('the baseline in --url mode runs through the client and scores exactly as POST /baseline', async () => {
  const url = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  const remote = await remoteEnvironment(url);
  const report = await runBaseline(remote.environment, remote.taskIds, remote.limits);
  const local = await client.POST('/baseline', { body: {} });
  expect(report.episodes.map((r) => [r.task_id, r.seed, r.score, r.steps])).toEqual(local.data!.episodes.map((r) => [r.task_id, r.seed, r.score, r.steps]));
  expect(report.mean_score).toBe(local.data!.mean_score);
});
