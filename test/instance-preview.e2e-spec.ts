import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { Task } from '../src/engine/task.schema';
import { familyIds, latestFamily, nthSeedOf } from '../src/families';
import { canonicalTasks } from '../src/tasks/task-files';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';

/*
 * GET /tasks/{task_id}/instances/{seed} (docs/tasks.md, "Previewing an instance"): the instance a seed draws, as an
 * agent meets it, without playing it: any key for a train seed, not an agent key for a test seed; never the answers,
 * and no episode.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let agent: string;
let reader: string;

const BILLING = 'billing_duplicate_charge';
/** A task file with no family behind it: its canonical instance is its only one. */
const HANDWRITTEN = 'handwritten_duplicate_charge';
const TRAIN_SEED = nthSeedOf('train', 3);
const TEST_SEED = nthSeedOf('test', 2);

beforeAll(async () => {
  const tasksDir = mkdtempSync(join(tmpdir(), 'preview-tasks-'));
  for (const { task } of canonicalTasks()) {
    writeFileSync(join(tasksDir, `${task.id}.json`), JSON.stringify(task));
    if (task.id === BILLING) writeFileSync(join(tasksDir, `${HANDWRITTEN}.json`), JSON.stringify({ ...task, id: HANDWRITTEN }));
  }
  ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY, TASKS_DIR: tasksDir });
  ({ key: agent, readerKey: reader } = await tenantWithKey(ctx.http, 'preview-lab'));
});
afterAll(() => ctx.app.close());

const preview = (taskId: string, seed: number | string) => request(ctx.http).get(`/tasks/${taskId}/instances/${seed}`);
const episodeCount = async () => (await request(ctx.http).get('/episodes?limit=100').set(asAdmin).expect(200)).body.items.length as number;

function expectErrorBody(res: request.Response, status: number, code: string): void {
  expect(res.body).toMatchObject({ statusCode: status, code, request_id: res.headers['x-request-id'] });
  expect(typeof res.body.message).toBe('string');
}

describe('a train seed, with an agent key', () => {
  it.each(familyIds())('%s: the preview is the instance reset draws, each ticket as open_ticket shows it', async (taskId) => {
    const shown = (await preview(taskId, TRAIN_SEED).set(bearer(agent)).expect(200)).body;
    const reset = (await request(ctx.http).post('/reset').set(bearer(agent)).send({ task_id: taskId, seed: TRAIN_SEED }).expect(200)).body;
    expect(shown).toMatchObject({
      task_id: taskId,
      seed: TRAIN_SEED,
      split: 'train',
      generator_version: reset.info.task_version,
      max_steps: reset.info.max_steps,
    });
    // The first observation, as reset gives it (same inbox, instruction and budget); its score is null: nothing has been done.
    expect(shown.observation.score).toBeNull();
    expect({ ...shown.observation, score: reset.observation.score }).toEqual(reset.observation);
    const opened = [];
    for (const { ticket_id } of reset.observation.inbox) {
      const step = (await request(ctx.http).post('/step').set(bearer(agent)).send({ episode_id: reset.episode_id, action: { type: 'open_ticket', ticket_id } }).expect(200)).body;
      opened.push(step.observation.active_ticket);
    }
    expect(shown.tickets).toEqual(opened);
  });

  it('is the same for every key, and creates no episode', async () => {
    const before = await episodeCount();
    const asAgent = (await preview(BILLING, TRAIN_SEED).set(bearer(agent)).expect(200)).body;
    expect((await preview(BILLING, TRAIN_SEED).set(bearer(reader)).expect(200)).body).toEqual(asAgent);
    expect((await preview(BILLING, TRAIN_SEED).set(asAdmin).expect(200)).body).toEqual(asAgent);
    await preview(BILLING, TEST_SEED).set(bearer(reader)).expect(200);
    expect(await episodeCount()).toBe(before);
  });
});

describe('a test seed', () => {
  it('is refused to an agent key (403), shown to a reader key and the admin key', async () => {
    const refused = await preview(BILLING, TEST_SEED).set(bearer(agent)).expect(403);
    expectErrorBody(refused, 403, 'FORBIDDEN');
    expect(refused.body.message).toMatch(/test seed/);
    const asReader = (await preview(BILLING, TEST_SEED).set(bearer(reader)).expect(200)).body;
    expect(asReader).toMatchObject({ task_id: BILLING, seed: TEST_SEED, split: 'test' });
    expect((await preview(BILLING, TEST_SEED).set(asAdmin).expect(200)).body).toEqual(asReader);
  });
});

describe('never the answers', () => {
  /** Every key of a JSON value, at any depth. */
  const keysOf = (value: unknown): string[] =>
    Array.isArray(value) ? value.flatMap(keysOf) : value !== null && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]) : [];

  it.each([
    ['train', TRAIN_SEED, () => agent],
    ['test', TEST_SEED, () => reader],
  ])('a %s instance: no answer-key field and none of its text, nor the knowledge base', async (_split, seed, key) => {
    const shown = (await preview(BILLING, seed).set(bearer(key())).expect(200)).body;
    const task: Task = latestFamily(BILLING)!.generate(seed);
    // Priority and team are a ticket's own fields too (its current ones); every other answer-key field is hidden.
    const hidden = [...Object.keys(task.answer_key).filter((k) => k !== 'priority' && k !== 'team'), 'answer_key', 'knowledge_base', 'clock', 'expected', 'answer', 'gold', 'details'];
    expect(hidden).toEqual(expect.arrayContaining(['target_ticket_id', 'required_article_ids', 'resolution', 'reply_claims', 'justification']));
    const keys = new Set(keysOf(shown));
    expect(hidden.filter((k) => keys.has(k))).toEqual([]);
    const text = JSON.stringify(shown);
    const secrets = [
      ...Object.values(task.answer_key.justification),
      ...(task.answer_key.reply_claims ?? []).map((claim) => claim.description),
      ...(task.answer_key.forbidden ?? []).map((statement) => statement.description),
      ...task.knowledge_base.map((article) => article.body),
    ];
    expect(secrets.length).toBeGreaterThan(5);
    expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
  });
});

describe('refusals', () => {
  it('an unknown task is 404; a task without a family 422, naming task_id', async () => {
    const unknown = await preview('nope', TRAIN_SEED).set(bearer(agent)).expect(404);
    expectErrorBody(unknown, 404, 'NOT_FOUND');
    expect(unknown.body.message).toMatch(/unknown task "nope"/);
    const handwritten = await preview(HANDWRITTEN, TRAIN_SEED).set(bearer(reader)).expect(422);
    expectErrorBody(handwritten, 422, 'VALIDATION_FAILED');
    expect(handwritten.body.details).toEqual([{ field: 'task_id', message: expect.stringMatching(/no family/) }]);
  });

  it.each(['-1', 'abc', '2147483648', '1.5', '0x10'])('seed %s is 422, naming seed', async (seed) => {
    const res = await preview(BILLING, seed).set(bearer(agent)).expect(422);
    expectErrorBody(res, 422, 'VALIDATION_FAILED');
    expect(res.body.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['seed']));
    expect(res.body.details.every((d: { field: string }) => d.field === 'seed')).toBe(true);
  });

  it('with keys required, no key (or an unknown one) is 401', async () => {
    expectErrorBody(await preview(BILLING, TRAIN_SEED).expect(401), 401, 'UNAUTHENTICATED');
    expectErrorBody(await preview(BILLING, TRAIN_SEED).set(bearer('sdk_not-a-key')).expect(401), 401, 'UNAUTHENTICATED');
  });
});
