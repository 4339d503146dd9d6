import request from 'supertest';
import { generatorVersionId, latestFamily, splitOf } from '../src/families';
import { referenceRun } from '../tools/validity/solvers';
import { SOLUTIONS } from './fixtures/solutions';
import { freshDatabaseUrl, startTestApp } from './support/test-app';

/*
 * Task families over HTTP: every seed draws a different instance (the default variant), the task file's instance
 * stays reachable as "canonical", seeds are split into train and test (test episodes run with feedback "final"), and
 * a drawn instance is stored as its generator version and seed, so it replays and verifies after a restart.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.app.close());

const http = () => request(ctx.http);
const reset = async (body: object) => (await http().post('/reset').send(body).expect(200)).body;
const FAMILIES = Object.keys(SOLUTIONS);

it('every seed draws its own instance; the same seed draws the same one', async () => {
  for (const taskId of FAMILIES) {
    const a = await reset({ task_id: taskId, seed: 101 });
    const b = await reset({ task_id: taskId, seed: 102 });
    const again = await reset({ task_id: taskId, seed: 101 });
    expect(a.info).toMatchObject({ variant: 'generated', split: 'train', task_version: generatorVersionId(latestFamily(taskId)!.generatorVersion) });
    expect(again.observation).toEqual(a.observation);
    expect(b.observation.inbox.map((t: any) => t.ticket_id)).not.toEqual(a.observation.inbox.map((t: any) => t.ticket_id));
  }
});

it.each(FAMILIES)('%s: the canonical instance is the task file, unchanged: the walkthrough rewards still hold', async (taskId) => {
  const started = await reset({ task_id: taskId, variant: 'canonical', seed: 42 });
  expect(started.info).toMatchObject({ variant: 'canonical', split: null, feedback: 'dense' });
  const rewards: number[] = [];
  for (const action of SOLUTIONS[taskId].actions) {
    rewards.push((await http().post('/step').send({ episode_id: started.episode_id, action }).expect(200)).body.reward);
  }
  expect(rewards.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
  if (taskId === 'billing_duplicate_charge') expect(rewards).toEqual([0.05, 0.1, 0.15, 0.2, 0.2, 0.3]);
});

it.each(FAMILIES)('%s: a drawn instance played by the reference solver scores 1.0, verifies, and rescores the same', async (taskId) => {
  const seed = 2024;
  const started = await reset({ task_id: taskId, seed });
  const { actions } = referenceRun(latestFamily(taskId)!.generate(seed), seed);
  let last: any;
  for (const action of actions) last = (await http().post('/step').send({ episode_id: started.episode_id, action }).expect(200)).body;
  expect(last).toMatchObject({ done: true, info: { score: 1 } });
  expect((await http().get(`/episodes/${started.episode_id}/verify`).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true, replayed_score: 1 });
  expect((await http().get(`/episodes/${started.episode_id}/rescore`).expect(200)).body.rescored).toMatchObject({ score: 1 });
  expect((await http().get(`/episodes/${started.episode_id}`).expect(200)).body).toMatchObject({ variant: 'generated', split: 'train', seed });
});

it('split: test seeds are drawn from the test split and always run with feedback "final"', async () => {
  const test = await reset({ split: 'test' });
  expect(test.info.seed % 5).toBe(0);
  expect(test.info).toMatchObject({ split: 'test', feedback: 'final', score: null });
  const train = await reset({ split: 'train' });
  expect(splitOf(train.info.seed)).toBe('train');
  expect(train.info).toMatchObject({ split: 'train', feedback: 'dense' });
  // Given a test seed, the split follows from it.
  expect((await reset({ seed: 35 })).info).toMatchObject({ split: 'test', feedback: 'final' });
});

it('refuses what contradicts the split rule, naming the field, and starts nothing', async () => {
  const count = async () => (await http().get('/episodes').query({ limit: 200 }).expect(200)).body.items.length;
  const before = await count();
  // A combination is refused naming every field in it: changing any one of them mends the request.
  const refused = async (body: object, fields: string[], message: RegExp) => {
    const res = (await http().post('/reset').send(body).expect(422)).body;
    expect(res.code).toBe('VALIDATION_FAILED');
    expect(res.details.map((d: any) => d.field)).toEqual(fields);
    for (const detail of res.details) expect(detail.message).toMatch(message);
  };
  await refused({ seed: 35, feedback: 'dense' }, ['seed', 'feedback'], /is a test seed/);
  await refused({ split: 'test', feedback: 'dense' }, ['split', 'feedback'], /is a test seed/);
  await refused({ seed: 36, split: 'test' }, ['seed', 'split'], /is a train seed, not a test seed/);
  await refused({ variant: 'canonical', split: 'train' }, ['variant', 'split'], /canonical instance is in no split/);
  await refused({ variant: 'sample' }, ['variant'], /variant must be one of: generated, canonical/);
  await refused({ split: 'dev' }, ['split'], /split must be one of: train, test/);
  expect(await count()).toBe(before);
});

it('/tasks describes each family: its generator, what varies, what makes it hard, the split rule', async () => {
  const { tasks } = (await http().get('/tasks').expect(200)).body;
  expect(tasks.map((t: any) => t.id).sort()).toEqual([...FAMILIES].sort());
  for (const task of tasks) {
    expect(task.family).toMatchObject({
      generator_version: generatorVersionId(latestFamily(task.id)!.generatorVersion),
      split_rule: expect.stringContaining('divisible by 5'),
      varies: expect.any(String),
      hard: expect.any(String),
    });
    expect(task.family.distinct_instances).toBeGreaterThan(1000);
  }
});

it('a drawn episode continues after a restart: the instance is drawn again from its generator and seed', async () => {
  const databaseUrl = freshDatabaseUrl();
  const first = await startTestApp(databaseUrl);
  const seed = 77;
  const taskId = 'logistics_missing_order_vip';
  const { actions } = referenceRun(latestFamily(taskId)!.generate(seed), seed);
  const id = (await request(first.http).post('/reset').send({ task_id: taskId, seed }).expect(200)).body.episode_id;
  for (const action of actions.slice(0, 3)) await request(first.http).post('/step').send({ episode_id: id, action }).expect(200);
  await first.app.close();
  const second = await startTestApp(databaseUrl);
  try {
    let last: any;
    for (const action of actions.slice(3)) last = (await request(second.http).post('/step').send({ episode_id: id, action }).expect(200)).body;
    expect(last.info.score).toBe(1);
    expect((await request(second.http).get(`/episodes/${id}/verify`).expect(200)).body).toMatchObject({ replay_ok: true, chain_ok: true });
  } finally {
    await second.app.close();
  }
});
