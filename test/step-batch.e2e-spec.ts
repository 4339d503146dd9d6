import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ManualClock } from '../src/common/clock';
import { TenantRepository } from '../src/tenants/tenant.repository';
import { ADMIN_KEY, asAdmin, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';
import { openWsClient } from './support/ws-client';

/*
 * POST /step/batch and the /ws step_batch message: many steps in one request, each answered as POST /step would
 * answer it, applied in item order per episode, persisted like any step; a bad item fails only itself.
 */

const canonical = (taskId = 'billing_duplicate_charge') => ({ variant: 'canonical', task_id: taskId, seed: 7 });

async function resetOne(http: any, headers: Record<string, string> = {}, taskId?: string): Promise<{ id: string; inbox: string[] }> {
  const body = (await request(http).post('/reset').set(headers).send(canonical(taskId)).expect(200)).body;
  return { id: body.episode_id, inbox: body.observation.inbox.map((t: { ticket_id: string }) => t.ticket_id) };
}

/** A step response without the id its episode has (twin episodes are compared). */
const withoutId = ({ episode_id: _id, ...rest }: Record<string, unknown>) => rest;

describe('POST /step/batch', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  let wsUrl: string;
  beforeAll(async () => {
    ctx = await startTestApp(undefined, { STEP_BATCH_MAX_ITEMS: '8' });
    await ctx.app.listen(0, '127.0.0.1');
    wsUrl = `ws://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/ws`;
  });
  afterAll(() => ctx.app.close());

  it('answers each item exactly as POST /step answers the same steps, applied in item order per episode', async () => {
    const [a, b, twinA, twinB] = [await resetOne(ctx.http), await resetOne(ctx.http, {}, 'security_compromised_account'), await resetOne(ctx.http), await resetOne(ctx.http, {}, 'security_compromised_account')];
    const planA = [
      { type: 'open_ticket', ticket_id: a.inbox[0] },
      { type: 'set_priority', priority: 'high' },
      { type: 'send_reply', message: 'We refunded the duplicate charge; it settles in 5-7 business days.' },
    ];
    const planB = [
      { type: 'search_policy', query: 'account takeover sessions' },
      { type: 'open_ticket', ticket_id: b.inbox[1] },
    ];
    // Interleaved, so order per episode is the items' order, not the body's grouping.
    const items = [
      { episode_id: a.id, action: planA[0] },
      { episode_id: b.id, action: planB[0] },
      { episode_id: a.id, action: planA[1] },
      { episode_id: b.id, action: planB[1] },
      { episode_id: a.id, action: planA[2] },
    ];
    const batch = (await request(ctx.http).post('/step/batch').send({ items }).expect(200)).body;
    expect(batch.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const single = async (id: string, action: unknown) => (await request(ctx.http).post('/step').send({ episode_id: id, action }).expect(200)).body;
    const expected = [
      await single(twinA.id, planA[0]),
      await single(twinB.id, planB[0]),
      await single(twinA.id, planA[1]),
      await single(twinB.id, planB[1]),
      await single(twinA.id, planA[2]),
    ];
    expect(batch.results.map((r: { result: Record<string, unknown> }) => withoutId(r.result))).toEqual(expected.map(withoutId));
    expect(batch.results.map((r: { result: { episode_id: string } }) => r.result.episode_id)).toEqual([a.id, b.id, a.id, b.id, a.id]);

    // Stored as steps: the action log in item order, the chain intact.
    const state = (await request(ctx.http).get(`/state/${a.id}`).expect(200)).body;
    expect(state.actions.map((entry: { action: unknown }) => entry.action)).toEqual(planA);
    const verified = (await request(ctx.http).get(`/episodes/${a.id}/verify`).expect(200)).body;
    expect(verified).toMatchObject({ chain_ok: true, ledger_ok: true, replay_ok: true });
  });

  it('fails only the bad items, each with the error POST /step gives, naming items.<i>.<field>', async () => {
    const episode = await resetOne(ctx.http);
    const items = [
      { episode_id: episode.id, action: { type: 'open_ticket', ticket_id: episode.inbox[0] } },
      { episode_id: 'no-such-episode', action: { type: 'set_priority', priority: 'high' } },
      { episode_id: episode.id, action: { type: 'open_ticket' } },
      42,
      { episode_id: episode.id, action: { type: 'set_priority', priority: 'high' }, surplus: true },
      { episode_id: episode.id, action: { type: 'send_reply', message: 'x'.repeat(2001) } },
      { episode_id: episode.id, action: { type: 'set_priority', priority: 'urgent' } },
    ];
    const { results } = (await request(ctx.http).post('/step/batch').send({ items }).expect(200)).body;
    expect(results.map((r: { status: number }) => r.status)).toEqual([200, 404, 422, 422, 422, 422, 200]);
    const single = (await request(ctx.http).post('/step').send({ episode_id: 'no-such-episode', action: { type: 'set_priority', priority: 'high' } }).expect(404)).body;
    expect({ ...results[1].error, request_id: 'X' }).toEqual({ ...single, request_id: 'X' });
    expect(results[2].error.details).toEqual([{ field: 'items.2.action.ticket_id', message: 'items.2.action.ticket_id is required' }]);
    expect(results[3].error.details).toEqual([{ field: 'items.3', message: expect.stringMatching(/must be an object/) }]);
    expect(results[4].error.details).toEqual([{ field: 'items.4.surplus', message: 'property surplus should not exist' }]);
    expect(results[5].error.details).toEqual([{ field: 'items.5.action.message', message: 'message must be at most 2000 characters' }]);
    for (const failed of results.filter((r: { status: number }) => r.status !== 200)) {
      expect(failed.error).toMatchObject({ statusCode: failed.status, code: expect.any(String), request_id: expect.any(String) });
      expect(failed.result).toBeUndefined();
    }
    // The good items were applied, the bad ones not: two steps.
    const state = (await request(ctx.http).get(`/state/${episode.id}`).expect(200)).body;
    expect(state.actions.map((e: { action: { type: string } }) => e.action.type)).toEqual(['open_ticket', 'set_priority']);
  });

  it('keeps request_id idempotence within and across batches', async () => {
    const episode = await resetOne(ctx.http);
    const open = { type: 'open_ticket', ticket_id: episode.inbox[0] };
    const items = [
      { episode_id: episode.id, action: open, request_id: 'r-1' },
      { episode_id: episode.id, action: open, request_id: 'r-1' },
      { episode_id: episode.id, action: { type: 'set_priority', priority: 'low' }, request_id: 'r-1' },
    ];
    const { results } = (await request(ctx.http).post('/step/batch').send({ items }).expect(200)).body;
    expect(results.map((r: { status: number }) => r.status)).toEqual([200, 200, 409]);
    expect(results[1].result).toEqual(results[0].result);
    const again = (await request(ctx.http).post('/step/batch').send({ items: [items[0]] }).expect(200)).body;
    expect(again.results[0].result).toEqual(results[0].result);
    const state = (await request(ctx.http).get(`/state/${episode.id}`).expect(200)).body;
    expect(state.actions).toHaveLength(1);
  });

  it('refuses a bad envelope whole (422) and applies nothing', async () => {
    const episode = await resetOne(ctx.http);
    const step = { episode_id: episode.id, action: { type: 'set_priority', priority: 'high' } };
    const tooMany = (await request(ctx.http).post('/step/batch').send({ items: Array(9).fill(step) }).expect(422)).body;
    expect(tooMany.details).toEqual([{ field: 'items', message: expect.stringMatching(/at most 8 elements \(STEP_BATCH_MAX_ITEMS\)/) }]);
    for (const body of [{}, { items: [] }, { items: step }, { items: [step], extra: 1 }]) {
      const refused = (await request(ctx.http).post('/step/batch').send(body).expect(422)).body;
      expect(refused.code).toBe('VALIDATION_FAILED');
    }
    const state = (await request(ctx.http).get(`/state/${episode.id}`).expect(200)).body;
    expect(state.actions).toHaveLength(0);
  });

  it('over /ws: a step_batch message on any episode of the key, answered with one result per item', async () => {
    const client = await openWsClient(wsUrl);
    try {
      const reset = await client.ask({ type: 'reset', data: canonical() });
      const sessionEpisode = reset.data.episode_id;
      const other = await resetOne(ctx.http);
      const answer = await client.ask({
        type: 'step_batch',
        data: {
          items: [
            { episode_id: sessionEpisode, action: { type: 'search_policy', query: 'duplicate charge refund' } },
            { episode_id: other.id, action: { type: 'open_ticket', ticket_id: other.inbox[0] } },
            { episode_id: other.id, action: { type: 'open_ticket' } },
          ],
        },
      });
      expect(answer.type).toBe('step_batch');
      expect(answer.data.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 422]);
      expect(answer.data.results[1].result.episode_id).toBe(other.id);
      const refused = await client.ask({ type: 'step_batch', data: { items: [] } });
      expect(refused).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', status: 422 } });
    } finally {
      client.close();
    }
  });
});

describe('POST /step/batch across tenants and rates', () => {
  it("tenant B's batch item on tenant A's episode is 404 like a missing one, and changes nothing", async () => {
    const ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY });
    try {
      const a = (await tenantWithKey(ctx.http, 'tenant-a')).key;
      const b = (await tenantWithKey(ctx.http, 'tenant-b')).key;
      const episodeOfA = await resetOne(ctx.http, bearer(a));
      const before = (await request(ctx.http).get(`/state/${episodeOfA.id}`).set(bearer(a)).expect(200)).body;
      const action = { type: 'open_ticket', ticket_id: episodeOfA.inbox[0] };
      const missingId = '00000000-0000-4000-8000-000000000000';
      const { results } = (await request(ctx.http).post('/step/batch').set(bearer(b)).send({ items: [{ episode_id: episodeOfA.id, action }, { episode_id: missingId, action }] }).expect(200)).body;
      expect(results.map((r: { status: number }) => r.status)).toEqual([404, 404]);
      expect(results[0].error.message.replace(episodeOfA.id, 'ID')).toBe(results[1].error.message.replace(missingId, 'ID'));
      expect((await request(ctx.http).get(`/state/${episodeOfA.id}`).set(bearer(a)).expect(200)).body).toEqual(before);
      // The admin key runs no episodes, in batches neither.
      await request(ctx.http).post('/step/batch').set(asAdmin).send({ items: [{ episode_id: episodeOfA.id, action }] }).expect(403);
    } finally {
      await ctx.app.close();
    }
  });

  it('counts every item against the tenant rate: a batch is taken whole or refused whole (429), nothing applied', async () => {
    const clock = new ManualClock('2026-12-01T12:00:00Z');
    const ctx = await startTestApp(undefined, { RATE_LIMIT_PER_MINUTE: '6' }, { clock });
    try {
      const episode = await resetOne(ctx.http); // 1 of 6
      const step = (priority: string) => ({ episode_id: episode.id, action: { type: 'set_priority', priority } });
      const taken = (await request(ctx.http).post('/step/batch').send({ items: [step('low'), step('normal'), step('high')] }).expect(200)).body; // 4 of 6
      expect(taken.results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200]);
      const refused = await request(ctx.http).post('/step/batch').send({ items: [step('urgent'), step('low'), step('high')] }).expect(429);
      expect(refused.body.message).toMatch(/fewer than the batch's 3 steps left/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      const never = await request(ctx.http).post('/step/batch').send({ items: Array(7).fill(step('low')) }).expect(429);
      expect(never.body.message).toMatch(/more than this tenant's rate limit of 6/);
      clock.advance(60_000);
      const state = (await request(ctx.http).get(`/state/${episode.id}`).expect(200)).body;
      expect(state.actions.map((e: { action: { priority: string } }) => e.action.priority)).toEqual(['low', 'normal', 'high']);
    } finally {
      await ctx.app.close();
    }
  });
});

describe('API key lookups', () => {
  it('a valid key is looked up once every two seconds; revoked here it is refused at once, by another process within two seconds', async () => {
    const clock = new ManualClock('2026-12-01T12:00:00Z');
    const ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY }, { clock });
    try {
      const { key, keyId } = await tenantWithKey(ctx.http, 'lookups');
      const lookups = jest.spyOn(ctx.app.get(TenantRepository), 'findKeyByHash');
      for (let i = 0; i < 5; i++) await request(ctx.http).get('/state').set(bearer(key)).expect(404);
      expect(lookups).toHaveBeenCalledTimes(1);
      clock.advance(2_000);
      await request(ctx.http).get('/state').set(bearer(key)).expect(404);
      expect(lookups).toHaveBeenCalledTimes(2);

      // Revoked behind this server's back: served until the remembered answer is two seconds old, then refused.
      await withDirect(ctx.databaseUrl, (db) => db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [new Date('2026-12-01T12:00:00Z'), keyId]));
      clock.advance(1_900);
      await request(ctx.http).get('/state').set(bearer(key)).expect(404);
      clock.advance(200);
      await request(ctx.http).get('/state').set(bearer(key)).expect(401);

      // Revoked through this server: refused on the very next request.
      const second = await tenantWithKey(ctx.http, 'lookups-2');
      await request(ctx.http).get('/state').set(bearer(second.key)).expect(404);
      await request(ctx.http).delete(`/admin/tenants/lookups-2/keys/${second.keyId}`).set(asAdmin).expect(200);
      await request(ctx.http).get('/state').set(bearer(second.key)).expect(401);
    } finally {
      await ctx.app.close();
    }
  });
});
