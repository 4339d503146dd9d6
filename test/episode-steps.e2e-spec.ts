import request from 'supertest';
import type { Action } from '../src/engine/actions';
import { latestFamily, nthSeedOf } from '../src/families';
import { referenceRun } from '../tools/validity/solvers';
import { ADMIN_KEY, CHAIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';

/*
 * GET /episodes/{id}/steps/{n} (the episode just after a step, replayed from its log) and the /episodes filters the
 * console browses by: variant, split, feedback and run_id (docs/audit.md).
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let agent: string;
let reader: string;
let otherReader: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
  ({ key: agent, readerKey: reader } = await tenantWithKey(ctx.http, 'steps-lab'));
  ({ readerKey: otherReader } = await tenantWithKey(ctx.http, 'steps-other'));
});
afterAll(() => ctx.app.close());

const http = () => request(ctx.http);
const post = (path: string, key: string, body: object) => http().post(path).set(bearer(key)).send(body);
const get = (path: string, key: string) => http().get(path).set(bearer(key));

const BILLING = 'billing_duplicate_charge';
const TRAIN_SEED = nthSeedOf('train', 2);
const TEST_SEED = nthSeedOf('test', 1);

function solution(taskId: string, seed: number): Action[] {
  return referenceRun(latestFamily(taskId)!.generate(seed), seed).actions;
}

/** Plays `actions` from a reset with `body`; returns the reset's and every step's response, as the agent got them. */
async function play(body: object, actions: (reset: any) => Action[]) {
  const reset = (await post('/reset', agent, body).expect(200)).body;
  const steps: any[] = [];
  for (const action of actions(reset)) steps.push((await post('/step', agent, { episode_id: reset.episode_id, action }).expect(200)).body);
  return { id: reset.episode_id as string, reset, steps };
}

describe('GET /episodes/{id}/steps/{n}', () => {
  let dense: Awaited<ReturnType<typeof play>>;
  let actions: Action[];

  beforeAll(async () => {
    actions = solution(BILLING, TRAIN_SEED);
    dense = await play({ task_id: BILLING, seed: TRAIN_SEED, feedback: 'dense' }, () => actions);
  });

  it('shows, at every step, exactly the observation the agent was sent, and the action-log row of that step', async () => {
    const log = (await get(`/episodes/${dense.id}/actions`, reader).expect(200)).body.actions;
    const zero = (await get(`/episodes/${dense.id}/steps/0`, reader).expect(200)).body;
    expect(zero).toMatchObject({ episode_id: dense.id, step: 0, step_count: actions.length, entry: null, changes: [], score: 0, done: false });
    expect(zero.observation).toEqual(dense.reset.observation);
    for (let n = 1; n <= actions.length; n++) {
      const view = (await get(`/episodes/${dense.id}/steps/${n}`, reader).expect(200)).body;
      expect([n, view.observation]).toEqual([n, dense.steps[n - 1].observation]);
      expect([n, view.entry]).toEqual([n, log[n - 1]]);
      expect([n, view.score, view.done]).toEqual([n, dense.steps[n - 1].info.score, dense.steps[n - 1].done]);
    }
  });

  it('lists what each step changed: the ticket opened, priority and team set, the reply sent, the resolution and the end', async () => {
    const changesAt = async (n: number) => (await get(`/episodes/${dense.id}/steps/${n}`, reader).expect(200)).body.changes as any[];
    for (let n = 1; n <= actions.length; n++) {
      const action = actions[n - 1] as any;
      const changes = await changesAt(n);
      const fields = changes.map((c) => c.field);
      if (action.type === 'open_ticket') expect(changes).toContainEqual(expect.objectContaining({ field: 'active_ticket', ticket_id: null, after: action.ticket_id }));
      if (action.type === 'set_priority') expect(changes).toContainEqual({ field: 'priority', ticket_id: expect.any(String), before: expect.any(String), after: action.priority });
      if (action.type === 'route_ticket') expect(changes).toContainEqual(expect.objectContaining({ field: 'team', ticket_id: expect.any(String), after: action.team }));
      if (action.type === 'send_reply') expect(changes).toContainEqual({ field: 'reply', ticket_id: expect.any(String), before: null, after: action.message });
      if (action.type === 'search_policy') expect(changes).toContainEqual(expect.objectContaining({ field: 'search', ticket_id: null, after: action.query }));
      if (action.type === 'resolve_ticket') {
        expect(fields).toEqual(expect.arrayContaining(['resolution', 'status', 'episode_status']));
        expect(changes.find((c) => c.field === 'episode_status')).toMatchObject({ before: 'active', after: 'resolved' });
      } else {
        expect(fields).not.toContain('episode_status');
      }
    }
  });

  it('grades each step: components and reply details as they stood then, full marks at the end', async () => {
    const last = (await get(`/episodes/${dense.id}/steps/${actions.length}`, reader).expect(200)).body;
    expect(last.score).toBe(1);
    expect(last.components.map((c: any) => c.earned)).toEqual(last.components.map((c: any) => c.weight));
    expect(last.reply_details.length).toBeGreaterThan(0);
    expect(last.reply_details.every((d: any) => d.covered && typeof d.sentence === 'string' && d.description !== null)).toBe(true);
    const replyStep = actions.findIndex((a) => a.type === 'send_reply');
    const beforeReply = (await get(`/episodes/${dense.id}/steps/${replyStep}`, reader).expect(200)).body;
    expect(beforeReply.reply_details.every((d: any) => !d.covered && d.sentence === null)).toBe(true);
    const detail = (await get(`/episodes/${dense.id}`, reader).expect(200)).body;
    expect(last.components).toEqual(detail.components);
  });

  it('shows a final-mode episode as its agent saw it: no score in the observation until the end', async () => {
    const final = await play({ task_id: BILLING, seed: TRAIN_SEED, feedback: 'final' }, () => actions);
    for (let n = 0; n <= actions.length; n++) {
      const view = (await get(`/episodes/${final.id}/steps/${n}`, reader).expect(200)).body;
      const sent = n === 0 ? final.reset.observation : final.steps[n - 1].observation;
      expect([n, view.observation]).toEqual([n, sent]);
      expect([n, view.observation.score === null]).toEqual([n, n < actions.length]);
      expect(typeof view.score).toBe('number');
    }
  });

  it('refuses a step the episode does not have (404), one that is no step number (422), an agent key (403) and another tenant (404)', async () => {
    expect((await get(`/episodes/${dense.id}/steps/${actions.length + 1}`, reader).expect(404)).body.message).toMatch(/no step/);
    for (const bad of ['-1', '1.5', 'x', '101', '0x1', '%20']) expect([bad, (await get(`/episodes/${dense.id}/steps/${bad}`, reader)).status]).toEqual([bad, 422]);
    await get(`/episodes/${dense.id}/steps/0`, agent).expect(403);
    await get(`/episodes/${dense.id}/steps/0`, otherReader).expect(404);
    await get(`/episodes/no-such-episode/steps/0`, reader).expect(404);
  });
});

describe('the /episodes filters: variant, split, feedback, run_id', () => {
  const ids: Record<string, string> = {};
  let runId: string;

  beforeAll(async () => {
    const resolveAtOnce = (reset: any): Action[] => [
      { type: 'open_ticket', ticket_id: reset.observation.inbox[0].ticket_id },
      { type: 'resolve_ticket', resolution: 'no_action_needed' },
    ];
    ids.canonical = (await play({ task_id: BILLING, variant: 'canonical', tags: ['filters'] }, resolveAtOnce)).id;
    ids.train = (await play({ task_id: BILLING, seed: TRAIN_SEED, feedback: 'dense', tags: ['filters'] }, resolveAtOnce)).id;
    ids.test = (await play({ task_id: BILLING, seed: TEST_SEED, tags: ['filters'] }, resolveAtOnce)).id;
    runId = (await post('/runs', agent, { name: 'filters', agent: 'filters/1', families: [BILLING], split: 'train', seeds: [TRAIN_SEED], trials: 1 }).expect(201)).body.run_id;
    ids.run = (await play({ run_id: runId, tags: ['filters'] }, resolveAtOnce)).id;
  });

  const listed = async (query: string): Promise<string[]> =>
    ((await get(`/episodes?tag=filters&limit=100&${query}`, reader).expect(200)).body.items as any[]).map((e) => e.episode_id).sort();

  it('narrows the listing exactly, alone and together', async () => {
    expect(await listed('variant=canonical')).toEqual([ids.canonical]);
    expect(await listed('variant=generated')).toEqual([ids.train, ids.test, ids.run].sort());
    expect(await listed('split=test')).toEqual([ids.test]);
    expect(await listed('split=train')).toEqual([ids.train, ids.run].sort());
    expect(await listed('feedback=final')).toEqual([ids.test, ids.run].sort());
    expect(await listed('feedback=dense')).toEqual([ids.canonical, ids.train].sort());
    expect(await listed(`run_id=${runId}`)).toEqual([ids.run]);
    expect(await listed('split=train&feedback=final')).toEqual([ids.run]);
    expect(await listed('variant=canonical&split=train')).toEqual([]);
  });

  it('narrows /stats and the export the same way', async () => {
    const stats = (await get('/stats?tag=filters&split=train', reader).expect(200)).body;
    expect(stats.tasks.reduce((n: number, t: any) => n + t.count, 0)).toBe(2);
    const lines = (await get('/episodes/export?tag=filters&variant=canonical', reader).expect(200)).text.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).episode_id)).toEqual([ids.canonical]);
  });

  it('refuses values outside each filter (422), naming it', async () => {
    for (const [field, value] of [['variant', 'drawn'], ['split', 'private'], ['feedback', 'sparse'], ['run_id', 'run id!']]) {
      const body = (await get(`/episodes?${field}=${encodeURIComponent(value)}`, reader).expect(422)).body;
      expect(body.details.map((d: any) => d.field)).toEqual([field]);
    }
  });
});
