import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { openWsClient } from './support/ws-client';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let wsUrl: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY, MAX_SESSIONS_PER_TENANT: '3' });
  await ctx.app.listen(0, '127.0.0.1');
  wsUrl = `ws://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}/ws`;
});
afterAll(() => ctx.app.close());

const open = (url = wsUrl, headers: Record<string, string> = {}) => openWsClient(url, headers);

describe.each(Object.keys(SOLUTIONS))('a full episode of %s over /ws', (taskId) => {
  it('earns exactly the rewards of the same actions over HTTP, and is persisted the same way', async () => {
    const actions = SOLUTIONS[taskId].actions;
    const client = await open();
    const started = await client.ask({ type: 'reset', data: { variant: 'canonical', task_id: taskId, seed: 21 } });
    expect(started.type).toBe('observation');
    expect(started.data).toMatchObject({ reward: 0, done: false });
    const wsRewards: number[] = [];
    let last: any;
    for (const action of actions) {
      last = await client.ask({ type: 'step', data: action });
      expect(last.type).toBe('observation');
      wsRewards.push(last.data.reward);
    }
    expect(last.data.done).toBe(true);
    const state = await client.ask({ type: 'state' });
    expect(state).toMatchObject({ type: 'state', data: { episode_id: started.data.episode_id, score: 1, step_count: actions.length } });
    client.ws.close();

    const http = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: taskId, seed: 21 }).expect(200)).body;
    const httpRewards: number[] = [];
    for (const action of actions) {
      httpRewards.push((await request(ctx.http).post('/step').send({ episode_id: http.episode_id, action }).expect(200)).body.reward);
    }
    expect(wsRewards).toEqual(httpRewards);
    const verify = (await request(ctx.http).get(`/episodes/${started.data.episode_id}/verify`).expect(200)).body;
    expect(verify).toMatchObject({ chain_ok: true, replay_ok: true });
  });
});

describe('errors', () => {
  it.each([
    ['invalid JSON', 'INVALID_JSON', '{"type": '],
    ['a non-object', 'INVALID_JSON', '[1, 2]'],
    ['an unknown type', 'UNKNOWN_TYPE', { type: 'teleport' }],
    ['a step before any reset', 'SESSION_ERROR', { type: 'step', data: { type: 'open_ticket', ticket_id: 'T-1041' } }],
    ['state before any reset', 'SESSION_ERROR', { type: 'state' }],
    ['a reset with an unknown task', 'VALIDATION_ERROR', { type: 'reset', data: { variant: 'canonical', task_id: 'nope' } }],
    ['a reset with an extra field', 'VALIDATION_ERROR', { type: 'reset', data: { variant: 'canonical', colour: 'red' } }],
  ])('%s is an error message with code %s', async (_name, code, message) => {
    const client = await open();
    const reply = await client.ask(message);
    expect(reply).toMatchObject({ type: 'error', data: { code, message: expect.any(String) } });
    client.ws.close();
  });

  it('an invalid action is VALIDATION_ERROR with details; stepping a finished episode is EXECUTION_ERROR', async () => {
    const client = await open();
    await client.ask({ type: 'reset', data: { variant: 'canonical' } });
    const invalid = await client.ask({ type: 'step', data: { type: 'set_priority', priority: 'critical' } });
    expect(invalid).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', details: [{ field: 'action.priority' }] } });
    await client.ask({ type: 'step', data: SOLUTIONS.billing_duplicate_charge.actions[0] });
    await client.ask({ type: 'step', data: { type: 'resolve_ticket', resolution: 'no_action_needed' } });
    const finished = await client.ask({ type: 'step', data: { type: 'search_policy', query: 'x' } });
    expect(finished).toMatchObject({ type: 'error', data: { code: 'EXECUTION_ERROR', message: expect.stringMatching(/resolved/) } });
    client.ws.close();
  });
});

describe('sessions', () => {
  it('authenticates the upgrade by header or query, and refuses a bad key', async () => {
    const { key, readerKey } = await tenantWithKey(ctx.http, 'ws-lab');
    const byHeader = await open(wsUrl, bearer(key));
    const started = await byHeader.ask({ type: 'reset', data: { variant: 'canonical' } });
    byHeader.ws.close();
    const episodes = (await request(ctx.http).get('/episodes').set(bearer(readerKey)).expect(200)).body.items;
    expect(episodes.map((e: any) => e.episode_id)).toEqual([started.data.episode_id]);
    const byQuery = await open(`${wsUrl}?api_key=${key}`);
    expect((await byQuery.ask({ type: 'reset', data: { variant: 'canonical' } })).type).toBe('observation');
    byQuery.ws.close();
    await expect(open(wsUrl, bearer('sdk_wrong'))).rejects.toThrow(/401/);
  });

  it('refuses sessions past the per-tenant capacity with CAPACITY_REACHED', async () => {
    const { key } = await tenantWithKey(ctx.http, 'ws-cap');
    const held = [await open(wsUrl, bearer(key)), await open(wsUrl, bearer(key)), await open(wsUrl, bearer(key))];
    const extra = await open(wsUrl, bearer(key));
    expect(await extra.next()).toEqual({
      type: 'error',
      data: { code: 'CAPACITY_REACHED', message: expect.any(String), active_sessions: 3, max_sessions: 3 },
    });
    held.forEach((c) => c.ws.close());
  });

  it('a dropped connection leaves the episode resumable over HTTP by id', async () => {
    const client = await open();
    const started = await client.ask({ type: 'reset', data: { variant: 'canonical', task_id: 'billing_duplicate_charge' } });
    await client.ask({ type: 'step', data: SOLUTIONS.billing_duplicate_charge.actions[0] });
    client.ws.terminate();
    const next = await request(ctx.http)
      .post('/step')
      .send({ episode_id: started.data.episode_id, action: SOLUTIONS.billing_duplicate_charge.actions[1] })
      .expect(200);
    expect(next.body.observation.step_count).toBe(2);
  });

  it('speaks MCP inside the session, on the session episode', async () => {
    const client = await open();
    await client.ask({ type: 'reset', data: { variant: 'canonical', task_id: 'billing_duplicate_charge' } });
    const list = await client.ask({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(list.data.result.tools.map((t: any) => t.name)).toContain('open_ticket');
    const call = await client.ask({
      type: 'mcp',
      data: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'open_ticket', arguments: { ticket_id: 'T-1041' } } },
    });
    expect(JSON.parse(call.data.result.content[0].text).reward).toBe(0.05);
    const bad = await client.ask({ type: 'mcp', data: { nope: true } });
    expect(bad.data).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
    client.ws.close();
  });
});

it('closes a session that stays silent past SESSION_IDLE_TIMEOUT_MS, leaving its episode resumable', async () => {
  const idle = await startTestApp(undefined, { SESSION_IDLE_TIMEOUT_MS: '1000' });
  await idle.app.listen(0, '127.0.0.1');
  try {
    const url = `ws://127.0.0.1:${(idle.app.getHttpServer().address() as AddressInfo).port}/ws`;
    const client = await open(url);
    const started = await client.ask({ type: 'reset', data: { variant: 'canonical' } });
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    const notice = await client.next();
    expect(notice).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR', message: expect.stringMatching(/inactivity/) } });
    expect(await closed).toBe(1001);
    await request(idle.http).post('/step').send({ episode_id: started.data.episode_id, action: SOLUTIONS.billing_duplicate_charge.actions[0] }).expect(200);
  } finally {
    await idle.app.close();
  }
});
