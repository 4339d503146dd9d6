import { CURRENT_GRADER_VERSION } from '../src/engine/graders';
import request from 'supertest';
import type { Action } from '../src/engine/actions';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { refusalOf, withDirect } from './support/direct-database';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let key: string;
/** The tenant's reader key: audits need one (the agent key `key` runs the episodes). */
let reader: string;
const TASKS = Object.keys(SOLUTIONS);

async function run(k: string, body: object, actions: Action[] = []): Promise<string> {
  const id = (await request(ctx.http).post('/reset').set(bearer(k)).send({ variant: 'canonical', ...body }).expect(200)).body.episode_id;
  for (const action of actions) {
    await request(ctx.http).post('/step').set(bearer(k)).send({ episode_id: id, action }).expect(200);
  }
  return id;
}

async function allPages(query: Record<string, unknown>, limit = 50) {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = (
      await request(ctx.http)
        .get('/episodes')
        .set(bearer(reader))
        .query({ ...query, limit, ...(cursor ? { cursor } : {}) })
        .expect(200)
    ).body;
    expect(page.items.length).toBeLessThanOrEqual(limit);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

beforeAll(async () => {
  ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY });
  ({ key, readerKey: reader } = await tenantWithKey(ctx.http, 'audit-lab'));
  // 240 episodes: 2 agents x 3 run labels x 3 tasks, every fifth tagged "nightly", every twelfth solved.
  for (let i = 0; i < 240; i++) {
    const taskId = TASKS[i % 3];
    await run(
      key,
      { task_id: taskId, seed: i, agent: i % 2 ? 'beta/1' : 'alpha/2', run_label: `run-${i % 3}`, tags: i % 5 === 0 ? ['nightly', 'eval'] : ['eval'] },
      i % 12 === 0 ? SOLUTIONS[taskId].actions : [],
    );
  }
}, 120_000);
afterAll(() => ctx.app.close());

describe('GET /episodes', () => {
  it('pages through everything, newest first, with no gaps or repeats', async () => {
    const items = await allPages({});
    expect(items).toHaveLength(240);
    expect(new Set(items.map((e) => e.episode_id)).size).toBe(240);
    for (let i = 1; i < items.length; i++) {
      const [prev, next] = [items[i - 1], items[i]];
      expect(prev.created_at > next.created_at || (prev.created_at === next.created_at && prev.episode_id > next.episode_id)).toBe(true);
    }
  });

  it('combines filters, and paginates within them', async () => {
    const items = await allPages({ agent: 'alpha/2', task_id: 'security_compromised_account' }, 7);
    // alpha: even i; security: i % 3 == 1 -> i % 6 == 4
    expect(items).toHaveLength(40);
    expect(items.every((e) => e.agent === 'alpha/2' && e.task_id === 'security_compromised_account')).toBe(true);
  });

  it.each([
    [{ tag: 'nightly' }, 48],
    [{ run_label: 'run-1' }, 80],
    [{ status: 'resolved' }, 20],
    [{ min_score: 1 }, 20],
    [{ max_score: 0 }, 220],
    [{ status: 'active', tag: 'nightly', agent: 'alpha/2' }, 20], // i % 10 == 0, less the four solved (i % 60 == 0)
  ])('%j matches %i episodes', async (query, count) => {
    expect(await allPages(query, 200)).toHaveLength(count);
  });

  it('filters by creation time', async () => {
    const all = await allPages({}, 200);
    const pivot = all[100].created_at;
    const before = await allPages({ created_before: pivot }, 200);
    const after = await allPages({ created_after: pivot }, 200);
    expect(before.length + after.length).toBe(240);
    expect(before.every((e) => e.created_at < pivot)).toBe(true);
    expect(after.every((e) => e.created_at >= pivot)).toBe(true);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 'many' }, 'limit'],
    [{ limit: 201 }, 'limit'],
    [{ min_score: 2 }, 'min_score'],
    [{ status: 'paused' }, 'status'],
    [{ created_after: 'yesterday' }, 'created_after'],
    [{ cursor: 'not-a-cursor' }, 'cursor'],
    [{ sort: 'asc' }, 'sort'],
    [{ tenant: 'Not A Slug' }, 'tenant'],
    [{ min_score: '' }, 'min_score'],
    [{ limit: '0x10' }, 'limit'],
    [{ limit: '1e-7' }, 'limit'],
    [{ created_after: '2026-01-31' }, 'created_after'],
    [{ created_before: '2026-01-31T10:00:00' }, 'created_before'],
    [{ tag: 'not a tag!' }, 'tag'],
  ])('rejects %j with 422 naming %s', async (query, field) => {
    const res = await request(ctx.http).get('/episodes').set(bearer(reader)).query(query).expect(422);
    expect(res.body.details.map((d: any) => d.field)).toContain(field);
  });

  it('refuses a tenant= from a reader key with 403: only the admin key chooses a tenant', async () => {
    const res = await request(ctx.http).get('/episodes').set(bearer(reader)).query({ tenant: 'other' }).expect(403);
    expect(res.body.message).toMatch(/only the admin key/);
  });

  it('reads any RFC 3339 time, with its zone, and a bound outside 1970-9999 as the edge of that range', async () => {
    const all = await allPages({}, 200);
    expect(await allPages({ created_after: '1900-01-01T00:00:00Z' }, 200)).toHaveLength(all.length);
    expect(await allPages({ created_before: '9999-12-31T23:59:59-12:00' }, 200)).toHaveLength(all.length);
    expect(await allPages({ created_before: '1969-12-31T23:00:00-02:00' }, 200)).toHaveLength(0);
    const pivot = new Date(all[100].created_at);
    const shifted = new Date(pivot.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    expect(await allPages({ created_after: shifted }, 200)).toEqual(await allPages({ created_after: pivot.toISOString() }, 200));
  });
});

describe('GET /episodes/{id} and /actions', () => {
  it('gives the summary with components, and the full log with rewards, scores and hashes', async () => {
    const id = await run(key, { task_id: 'billing_duplicate_charge', agent: 'probe', tags: ['one'] }, SOLUTIONS.billing_duplicate_charge.actions);
    const detail = (await request(ctx.http).get(`/episodes/${id}`).set(bearer(reader)).expect(200)).body;
    expect(detail).toMatchObject({ episode_id: id, status: 'resolved', score: 1, agent: 'probe', tags: ['one'], step_count: 6 });
    expect(detail.components.every((c: any) => c.earned === c.weight)).toBe(true);
    const log = (await request(ctx.http).get(`/episodes/${id}/actions`).set(bearer(reader)).expect(200)).body.actions;
    expect(log.map((a: any) => a.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(log.map((a: any) => a.score_after)).toEqual([0.05, 0.15, 0.3, 0.5, 0.7, 1]);
    expect(log.every((a: any) => /^[0-9a-f]{64}$/.test(a.hash))).toBe(true);
  });
});

describe('GET /episodes/export', () => {
  it('streams one parseable JSON line per filtered episode, with its trajectory', async () => {
    const res = await request(ctx.http).get('/episodes/export').set(bearer(reader)).query({ format: 'jsonl', agent: 'alpha/2' }).expect(200);
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = res.text.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines).toHaveLength((await allPages({ agent: 'alpha/2' }, 200)).length);
    expect(lines.every((l) => l.agent === 'alpha/2' && Array.isArray(l.actions) && l.actions.length === l.step_count)).toBe(true);
    expect(lines.some((l) => l.actions.length > 0)).toBe(true);
  });

  it('an empty result is an empty body, and a bad filter is 422 before streaming', async () => {
    const empty = await request(ctx.http).get('/episodes/export').set(bearer(reader)).query({ agent: 'nobody' }).expect(200);
    expect(empty.text).toBe('');
    await request(ctx.http).get('/episodes/export').set(bearer(reader)).query({ format: 'csv' }).expect(422);
  });
});

describe('GET /stats', () => {
  it('matches a hand-computed fixture', async () => {
    const { key: k, readerKey: kReader } = await tenantWithKey(ctx.http, 'stats-lab');
    const billing = SOLUTIONS.billing_duplicate_charge.actions;
    const security = SOLUTIONS.security_compromised_account.actions;
    // billing: 1.0 (solved, agent x), 0.05 (opened, then resolved wrongly: done, agent x), 0 (untouched, agent y)
    await run(k, { task_id: 'billing_duplicate_charge', agent: 'x' }, billing);
    await run(k, { task_id: 'billing_duplicate_charge', agent: 'x' }, [billing[0], { type: 'resolve_ticket', resolution: 'no_action_needed' }]);
    await run(k, { task_id: 'billing_duplicate_charge', agent: 'y' });
    // security: 1.0 (solved, agent y), 0.25 (opened + routed, still active, agent y)
    await run(k, { task_id: 'security_compromised_account', agent: 'y' }, security);
    await run(k, { task_id: 'security_compromised_account', agent: 'y' }, [security[0], security[3]]);

    const stats = (await request(ctx.http).get('/stats').set(bearer(kReader)).expect(200)).body;
    expect(stats).toEqual({
      threshold: 1,
      group_by: null,
      repeated_test_plays: 0,
      purged: { episodes: 0, steps: 0, purges: 0, last_purge_at: null },
      tasks: [
        {
          task_id: 'billing_duplicate_charge',
          count: 3,
          completion_rate: 0.6667,
          mean_score: 0.35,
          median_score: 0.05,
          success_rate: 0.3333,
          repeated_test_plays: 0,
          component_means: { opened_target: 0.033, policy_consulted: 0.033, priority: 0.05, routing: 0.067, reply_coverage: 0.067, resolution: 0.1 },
        },
        {
          task_id: 'security_compromised_account',
          count: 2,
          completion_rate: 0.5,
          mean_score: 0.625,
          median_score: 0.625,
          success_rate: 0.5,
          repeated_test_plays: 0,
          component_means: { opened_target: 0.05, policy_consulted: 0.05, priority: 0.075, routing: 0.2, reply_coverage: 0.1, resolution: 0.15 },
        },
      ],
    });

    const byAgent = (await request(ctx.http).get('/stats').set(bearer(kReader)).query({ group_by: 'agent', threshold: 0.05 }).expect(200)).body;
    expect(byAgent.tasks.map((t: any) => [t.task_id, t.agent, t.count, t.success_rate, t.median_score])).toEqual([
      ['billing_duplicate_charge', 'x', 2, 1, 0.525],
      ['billing_duplicate_charge', 'y', 1, 0, 0],
      ['security_compromised_account', 'y', 2, 1, 0.625],
    ]);
  });
});

describe('GET /episodes/{id}/verify', () => {
  it('reports ok for an untouched episode, and pinpoints the first altered row', async () => {
    const id = await run(key, { task_id: 'logistics_missing_order_vip' }, SOLUTIONS.logistics_missing_order_vip.actions);
    const ok = (await request(ctx.http).get(`/episodes/${id}/verify`).set(bearer(reader)).expect(200)).body;
    expect(ok).toEqual({
      episode_id: id,
      chain_ok: true,
      replay_ok: true,
      ledger_ok: true,
      grader_version: CURRENT_GRADER_VERSION,
      chain_scheme: 'hmac-sha256-v2',
      chain_key_id: expect.stringMatching(/^hk_[0-9a-f]{12}$/),
      // The canonical instance is in no split: nothing private to name.
      split_source: null,
      split_key_id: null,
      stored_score: 1,
      replayed_score: 1,
    });

    await withDirect(ctx.databaseUrl, async (db) => {
      // The log is append-only at the database level...
      const episodeRows = 'episode_serial = (SELECT serial FROM episodes WHERE id = ?)';
      expect(await refusalOf(db.run(`UPDATE action_log SET reward_milli = 0 WHERE ${episodeRows}`, [id]))).toMatch(/append-only/);
      expect(await refusalOf(db.run(`DELETE FROM action_log WHERE ${episodeRows}`, [id]))).toMatch(/append-only/);
      // ...so to tamper, the trigger must go first.
      await db.dropTrigger('action_log_no_update', 'action_log');
      await db.run(`UPDATE action_log SET reward_milli = 400, score_after_milli = 550 WHERE ${episodeRows} AND step_index = 4`, [id]);
    });

    const bad = (await request(ctx.http).get(`/episodes/${id}/verify`).set(bearer(reader)).expect(200)).body;
    expect(bad).toMatchObject({ chain_ok: false, replay_ok: false, stored_score: 1, replayed_score: 1, first_bad_index: 4 });
    expect(bad.problem).toBe('row does not match its hash');
  });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After once a tenant spends its budget, without touching other tenants', async () => {
    const limited = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: '5' });
    try {
      const one = (await tenantWithKey(limited.http, 'one')).readerKey;
      const two = (await tenantWithKey(limited.http, 'two')).readerKey;
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await request(limited.http).get('/episodes').set(bearer(one))).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const res = await request(limited.http).get('/episodes').set(bearer(one)).expect(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED' });
      expect(res.body.message).toMatch(/rate limit of 5 requests a minute \(RATE_LIMIT_PER_MINUTE\) is used up; retry in \d+ s/);
      await request(limited.http).get('/episodes').set(bearer(two)).expect(200);
    } finally {
      await limited.app.close();
    }
  });
});
