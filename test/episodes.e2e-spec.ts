import request from 'supertest';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { SOLUTIONS } from './fixtures/solutions';
import { startTestApp } from './support/test-app';

let app: NestFastifyApplication;
let http: ReturnType<NestFastifyApplication['getHttpServer']>;

beforeAll(async () => {
  ({ app, http } = await startTestApp());
});
afterAll(() => app.close());

const TASK_IDS = Object.keys(SOLUTIONS);

async function resetEpisode(body: object = {}) {
  const res = await request(http).post('/reset').send({ variant: 'canonical', ...body }).expect(200);
  return res.body as { episode_id: string; observation: any; reward: number; done: boolean; info: any };
}

function expectErrorBody(body: any, status: number) {
  expect(body).toEqual(
    expect.objectContaining({ statusCode: status, error: expect.any(String), message: expect.any(String) }),
  );
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.(ts|js):\d+/); // no stack frames
}

describe('POST /reset', () => {
  it('an empty body starts a drawn instance of the easy task with status 200', async () => {
    const res = (await request(http).post('/reset').send({}).expect(200)).body;
    expect(res.info).toMatchObject({ task_id: 'billing_duplicate_charge', variant: 'generated', task_version: expect.stringMatching(/^g\d+$/) });
    expect(Number.isInteger(res.info.seed)).toBe(true);
    expect(res.reward).toBe(0);
    expect(res.done).toBe(false);
    expect(res.observation.inbox.length).toBeGreaterThan(0);
    expect(res.observation.active_ticket).toBeNull();
    expect(res.observation.remaining_steps).toBe(12);
    // A drawn instance, not the task file: the canonical instance's ticket ids are not what it shows.
    const canonical = await resetEpisode({ seed: res.info.seed });
    expect(res.observation.inbox).not.toEqual(canonical.observation.inbox);
  });

  it('a body with only "variant": "canonical" starts the easy task\'s canonical instance', async () => {
    const res = await resetEpisode();
    expect(res.info).toMatchObject({ task_id: 'billing_duplicate_charge', variant: 'canonical' });
    expect(res.observation.inbox).toHaveLength(5);
    expect(res.observation.remaining_steps).toBe(12);
  });

  it('the same seed gives the same observation', async () => {
    const a = await resetEpisode({ task_id: 'security_compromised_account', seed: 99 });
    const b = await resetEpisode({ task_id: 'security_compromised_account', seed: 99 });
    expect(b.observation).toEqual(a.observation);
    expect(b.episode_id).not.toBe(a.episode_id);
  });

  it.each([
    [{ task_id: 'nope' }, 'task_id'],
    [{ seed: -1 }, 'seed'],
    [{ seed: 1.5 }, 'seed'],
    [{ seed: '3' }, 'seed'],
    [{ task_id: 7 }, 'task_id'],
    [{ extra: true }, 'extra'],
  ])('rejects %j with 422 naming %s', async (body, field) => {
    const res = await request(http).post('/reset').send(body).expect(422);
    expectErrorBody(res.body, 422);
    expect(res.body.details.map((d: any) => d.field)).toContain(field);
  });
});

describe.each(TASK_IDS)('a full episode of %s over HTTP', (taskId) => {
  it('reaches 1.0 through /step, and /state and /grader agree', async () => {
    const solution = SOLUTIONS[taskId];
    const started = await resetEpisode({ task_id: taskId, seed: 5 });
    let total = 0;
    let last: any;
    for (const action of solution.actions) {
      last = (await request(http).post('/step').send({ episode_id: started.episode_id, action }).expect(200)).body;
      total += last.reward;
      expect(last.observation.last_action_error).toBeNull();
    }
    expect(last.done).toBe(true);
    expect(last.info.score).toBe(1);
    expect(Math.round(total * 1000)).toBe(1000);

    const state = (await request(http).get(`/state/${started.episode_id}`).expect(200)).body;
    expect(state).toMatchObject({ task_id: taskId, status: 'resolved', done: true, score: 1 });
    expect(state.step_count).toBe(solution.actions.length);
    expect(state.actions.map((a: any) => a.step)).toEqual(solution.actions.map((_, i) => i + 1));
    expect(state.actions.map((a: any) => a.action)).toEqual(JSON.parse(JSON.stringify(solution.actions)));
    expect(state.actions.at(-1).score_after).toBe(1);
    expect(state.active_ticket.ticket_id).toBe(solution.targetTicketId);
    expect(JSON.stringify(state)).not.toMatch(/answer_key|accepted|contradictions|justification/);

    const graded = (await request(http).post('/grader').send({ episode_id: started.episode_id }).expect(200)).body;
    expect(graded.score).toBe(1);
    expect(graded.components.map((c: any) => [c.name, c.weight, c.earned])).toEqual([
      ['opened_target', 0.05, 0.05],
      ['policy_consulted', 0.1, 0.1],
      ['priority', 0.15, 0.15],
      ['routing', 0.2, 0.2],
      ['reply_coverage', 0.2, 0.2],
      ['resolution', 0.3, 0.3],
    ]);
    expect(graded.components.every((c: any) => typeof c.why === 'string' && c.why.length > 0)).toBe(true);
  });
});

describe('POST /step', () => {
  let episodeId: string;
  beforeAll(async () => {
    episodeId = (await resetEpisode({ task_id: 'billing_duplicate_charge', seed: 1 })).episode_id;
  });

  const long = 'x'.repeat(5000);
  it.each([
    ['an unknown action type', { type: 'refund_everything' }, 'action.type'],
    ['a missing type', { ticket_id: 'T-1041' }, 'action.type'],
    ['a missing field', { type: 'open_ticket' }, 'action.ticket_id'],
    ['an extra field', { type: 'open_ticket', ticket_id: 'T-1041', force: true }, 'action.force'],
    ['a wrong type', { type: 'open_ticket', ticket_id: 1041 }, 'action.ticket_id'],
    ['a priority outside the enum', { type: 'set_priority', priority: 'critical' }, 'action.priority'],
    ['a team outside the enum', { type: 'route_ticket', team: 'finance' }, 'action.team'],
    ['an oversized reply', { type: 'send_reply', message: long }, 'action.message'],
    ['an oversized query', { type: 'search_policy', query: long }, 'action.query'],
    ['a blank reply', { type: 'send_reply', message: '   ' }, 'action.message'],
    ['a refund with no amount', { type: 'resolve_ticket', resolution: 'refund_issued' }, 'action.amount'],
    ['an amount with 3 decimals', { type: 'resolve_ticket', resolution: 'refund_issued', amount: 1.005 }, 'action.amount'],
    ['an amount of 0.005', { type: 'resolve_ticket', resolution: 'refund_issued', amount: 0.005 }, 'action.amount'],
    ['an amount of 1e-7 (no decimal point as JavaScript writes it)', { type: 'resolve_ticket', resolution: 'refund_issued', amount: 1e-7 }, 'action.amount'],
    ['an amount of 19.999', { type: 'resolve_ticket', resolution: 'credit_issued', amount: 19.999 }, 'action.amount'],
    ['a negative amount', { type: 'resolve_ticket', resolution: 'credit_issued', amount: -5 }, 'action.amount'],
    ['an amount where none is taken', { type: 'resolve_ticket', resolution: 'security_escalation', amount: 5 }, 'action.amount'],
    ['an unknown resolution', { type: 'resolve_ticket', resolution: 'refund_all' }, 'action.resolution'],
    ['an action that is a string', 'open_ticket', 'action'],
    ['an action that is an array', [{ type: 'open_ticket', ticket_id: 'T-1041' }], 'action'],
    ['a null action', null, 'action'],
  ])('rejects %s with 422 and changes nothing', async (_name, action, field) => {
    const res = await request(http).post('/step').send({ episode_id: episodeId, action }).expect(422);
    expectErrorBody(res.body, 422);
    expect(res.body.details.map((d: any) => d.field)).toContain(field);
    const state = (await request(http).get(`/state/${episodeId}`).expect(200)).body;
    expect(state.step_count).toBe(0);
    expect(state.actions).toEqual([]);
  });

  it('rejects a body with no episode id or no action', async () => {
    const res = await request(http).post('/step').send({}).expect(422);
    expect(res.body.details.map((d: any) => d.field).sort()).toEqual(['action', 'episode_id']);
  });

  it.each([
    ['a missing field', { type: 'open_ticket' }, [{ field: 'action.ticket_id', message: 'action.ticket_id is required' }]],
    ['a field sent as null', { type: 'set_priority', priority: null }, [{ field: 'action.priority', message: 'action.priority is required' }]],
    // Without a type nothing says which fields belong: only the type is reported, not the others as unknown.
    ['a missing type', { ticket_id: 'T-1041' }, [{ field: 'action.type', message: 'action.type is required' }]],
    ['a refund without its amount', { type: 'resolve_ticket', resolution: 'refund_issued' }, [{ field: 'action.amount', message: 'action.amount is required' }]],
  ])('names %s as "<path> is required"', async (_name, action, details) => {
    const res = await request(http).post('/step').send({ episode_id: episodeId, action }).expect(422);
    expect(res.body.details).toEqual(details);
    expect(res.body.message).toBe(details[0].message);
  });

  it.each([19.99, 0.07, 0.29, 0.57, 348, 1234.56])('takes an amount of %p and logs it exactly as sent', async (amount) => {
    const id = (await resetEpisode({ task_id: 'billing_duplicate_charge', seed: 1 })).episode_id;
    const action = { type: 'resolve_ticket', resolution: 'refund_issued', amount };
    await request(http).post('/step').send({ episode_id: id, action }).expect(200);
    const state = (await request(http).get(`/state/${id}`).expect(200)).body;
    expect(state.actions[0].action).toEqual(action);
    expect(JSON.stringify(state.actions[0].action.amount)).toBe(JSON.stringify(amount));
  });

  it('an action that cannot apply uses a step and says why', async () => {
    const id = (await resetEpisode({ task_id: 'billing_duplicate_charge', seed: 1 })).episode_id;
    const res = await request(http)
      .post('/step')
      .send({ episode_id: id, action: { type: 'send_reply', message: 'hello' } })
      .expect(200);
    expect(res.body.reward).toBe(0);
    expect(res.body.observation.last_action_error).toBe('open a ticket before you reply');
    expect(res.body.info.last_action_error).toBe('open a ticket before you reply');
    expect(res.body.observation.step_count).toBe(1);
  });

  it('answers 404 for an unknown episode, on every route that takes one', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const action = { type: 'open_ticket', ticket_id: 'T-1041' };
    expectErrorBody((await request(http).post('/step').send({ episode_id: missing, action }).expect(404)).body, 404);
    expectErrorBody((await request(http).get(`/state/${missing}`).expect(404)).body, 404);
    expectErrorBody((await request(http).post('/grader').send({ episode_id: missing }).expect(404)).body, 404);
    await request(http).get(`/state/${encodeURIComponent("' OR 1=1 --")}`).expect(404);
  });

  it('answers 409 when stepping a finished episode, and records nothing', async () => {
    const id = (await resetEpisode({ task_id: 'billing_duplicate_charge', seed: 1 })).episode_id;
    await request(http).post('/step').send({ episode_id: id, action: { type: 'open_ticket', ticket_id: 'T-1041' } }).expect(200);
    await request(http)
      .post('/step')
      .send({ episode_id: id, action: { type: 'resolve_ticket', resolution: 'no_action_needed' } })
      .expect(200);
    const res = await request(http).post('/step').send({ episode_id: id, action: { type: 'search_policy', query: 'refund' } }).expect(409);
    expectErrorBody(res.body, 409);
    const state = (await request(http).get(`/state/${id}`).expect(200)).body;
    expect(state.step_count).toBe(2);
    expect(state.actions).toHaveLength(2);
  });

  it('answers 400 with the error body for malformed JSON, and 413 for a body over the limit', async () => {
    const bad = await request(http).post('/step').set('content-type', 'application/json').send('{"episode_id": ').expect(400);
    expectErrorBody(bad.body, 400);
    const huge = await request(http)
      .post('/step')
      .send({ episode_id: episodeId, action: { type: 'send_reply', message: 'x'.repeat(400_000) } })
      .expect(413);
    expectErrorBody(huge.body, 413);
  });
});

describe('GET /tasks', () => {
  it('lists every task with its public fields only', async () => {
    const res = await request(http).get('/tasks').expect(200);
    expect(res.body.tasks.map((t: any) => t.id)).toEqual([
      'billing_duplicate_charge',
      'security_compromised_account',
      'logistics_missing_order_vip',
    ]);
    for (const task of res.body.tasks) {
      expect(Object.keys(task).sort()).toEqual(['difficulty', 'family', 'id', 'instruction', 'max_steps', 'max_steps_range', 'title', 'version']);
      expect(Object.keys(task.family).sort()).toEqual(['distinct_instances', 'domain', 'generator_version', 'hard', 'split_rule', 'varies']);
    }
    expect(JSON.stringify(res.body)).not.toMatch(/T-1041|T-2207|T-3318|refund_issued|vip_concierge|\$150/);
  });

  it('states the range of step budgets that episodes of each task really start with, canonical and drawn', async () => {
    const tasks = (await request(http).get('/tasks').expect(200)).body.tasks;
    for (const task of tasks) {
      const budgets = [(await resetEpisode({ task_id: task.id })).observation.remaining_steps];
      for (const seed of [1, 2, 3]) {
        const drawn = (await request(http).post('/reset').send({ task_id: task.id, seed }).expect(200)).body;
        budgets.push(drawn.observation.remaining_steps);
      }
      expect([task.id, budgets[0]]).toEqual([task.id, task.max_steps]);
      for (const budget of budgets) {
        expect([task.id, budget >= task.max_steps_range.min && budget <= task.max_steps_range.max]).toEqual([task.id, true]);
      }
    }
    // The family that draws a larger budget than its task file says: the range shows both.
    expect(tasks.find((t: any) => t.id === 'security_compromised_account').max_steps_range).toEqual({ min: 12, max: 14 });
  });
});

describe('POST /baseline', () => {
  it('is bounded per tenant: BASELINE_RUNS_PER_HOUR runs in an hour, then a 429 that says when to come back', async () => {
    const bounded = await startTestApp(undefined, { BASELINE_RUNS_PER_HOUR: '1' });
    try {
      const before = (await request(bounded.http).get('/episodes').expect(200)).body.items.length;
      await request(bounded.http).post('/baseline').send({ task_ids: ['billing_duplicate_charge'] }).expect(200);
      const written = (await request(bounded.http).get('/episodes?limit=100').expect(200)).body.items.length;
      const refused = await request(bounded.http).post('/baseline').send({ task_ids: ['billing_duplicate_charge'] }).expect(429);
      expect(refused.body.message).toMatch(/BASELINE_RUNS_PER_HOUR/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
      expect((await request(bounded.http).get('/episodes?limit=100').expect(200)).body.items.length).toBe(written);
      expect(written).toBeGreaterThan(before);
    } finally {
      await bounded.app.close();
    }
  });

  it('runs every task as persisted episodes and reports scores and the mean', async () => {
    const res = await request(http).post('/baseline').send({}).expect(200);
    // Every task the catalogue serves, in its order.
    const served = (await request(http).get('/tasks').expect(200)).body.tasks.map((t: { id: string }) => t.id);
    expect(served.length).toBeGreaterThanOrEqual(3);
    expect(res.body.results.map((r: any) => r.task_id)).toEqual(served);
    // Per task: the canonical instance and the first 10 seeds of each split; the mean is that of the test means.
    expect(res.body.seeds_per_split).toBe(10);
    expect(res.body.episodes).toHaveLength(served.length * (1 + 2 * 10));
    const mean = res.body.results.reduce((s: number, r: any) => s + r.test, 0) / served.length;
    expect(res.body.mean_score).toBeCloseTo(mean, 3);
    for (const result of res.body.results) {
      const mine = res.body.episodes.filter((e: any) => e.task_id === result.task_id);
      expect(mine.map((e: any) => e.split)).toEqual([null, ...Array(10).fill('train'), ...Array(10).fill('test')]);
      expect(mine.filter((e: any) => e.split === 'test').map((e: any) => e.seed)).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45]);
      const testMean = mine.filter((e: any) => e.split === 'test').reduce((s: number, e: any) => s + e.score, 0) / 10;
      expect(result.test).toBeCloseTo(testMean, 3);
      expect(result.canonical).toBe(mine[0].score);
    }
    for (const episode of res.body.episodes.filter((_: unknown, i: number) => i % 7 === 0)) {
      const state = (await request(http).get(`/state/${episode.episode_id}`).expect(200)).body;
      expect(state).toMatchObject({ score: episode.score, done: true, variant: episode.variant, split: episode.split });
      expect(state.actions).toHaveLength(episode.steps);
    }
    const again = await request(http).post('/baseline').send({}).expect(200);
    expect(again.body.episodes.map((r: any) => [r.score, r.steps])).toEqual(res.body.episodes.map((r: any) => [r.score, r.steps]));
  });

  it('runs only the named tasks, and refuses unknown ones with 422', async () => {
    const res = await request(http).post('/baseline').send({ task_ids: ['security_compromised_account'] }).expect(200);
    expect(res.body.results).toHaveLength(1);
    const bad = await request(http).post('/baseline').send({ task_ids: ['nope'] }).expect(422);
    expect(bad.body.details[0].field).toBe('task_ids');
  });
});

describe('service routes', () => {
  it('GET /health reports healthy with a database check', async () => {
    const res = await request(http).get('/health').expect(200);
    expect(res.body).toMatchObject({ status: 'healthy', database: 'ok', tasks: 3 });
  });

  it('GET /openapi.json documents every route with a version', async () => {
    const res = await request(http).get('/openapi.json').expect(200);
    expect(res.body.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(Object.keys(res.body.paths).sort()).toEqual(
      [
        '/action_schema',
        '/admin/events',
        '/admin/ledger/enroll',
        '/admin/retention/sweep',
        '/admin/tenants',
        '/admin/tenants/{slug}',
        '/admin/tenants/{slug}/keys',
        '/admin/tenants/{slug}/keys/{key_id}',
        '/admin/tenants/{slug}/retention',
        '/baseline',
        '/episodes',
        '/episodes/export',
        '/episodes/{episode_id}',
        '/episodes/{episode_id}/actions',
        '/episodes/{episode_id}/rescore',
        '/episodes/{episode_id}/steps/{step}',
        '/episodes/{episode_id}/verify',
        '/grader',
        '/health',
        '/leaderboard',
        '/ledger/verify',
        '/mcp',
        '/metadata',
        '/metrics',
        '/reset',
        '/runs',
        '/runs/{run_a}/compare/{run_b}',
        '/runs/{run_id}',
        '/runs/{run_id}/cells',
        '/runs/{run_id}/episodes/{episode_id}/report',
        '/runs/{run_id}/export',
        '/runs/{run_id}/regrade',
        '/runs/{run_id}/regrade/{regrade_id}',
        '/schema',
        '/state',
        '/state/{episode_id}',
        '/stats',
        '/step',
        '/step/batch',
        '/tasks',
        '/tasks/{task_id}/instances/{seed}',
        '/tools',
      ].sort(),
    );
    expect(res.body.paths['/reset'].post.responses['200']).toBeDefined();
    expect(res.body.paths['/step'].post.responses['422'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/ErrorBodyDto',
    );
  });

  it('GET /docs serves the Swagger UI', async () => {
    const res = await request(http).get('/docs').expect(200);
    expect(res.text).toContain('swagger');
  });

  it('an unknown route answers 404 with the error body', async () => {
    expectErrorBody((await request(http).get('/no-such-route').expect(404)).body, 404);
  });
});
