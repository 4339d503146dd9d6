import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { APP_VERSION } from '../src/common/app-version';
import { asAdmin, bearer, ADMIN_KEY, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { parseExposition, valueOf, type Exposition } from './support/prometheus-text';
import { openWsClient } from './support/ws-client';

/*
 * GET /metrics (docs/metrics.md) on the real app: steps and resets over HTTP, a batch and /ws are counted exactly,
 * by action and transport; HTTP requests by route template (unmatched paths under one label); histograms agree
 * with their counters; no label carries an id. The route takes the admin key, or no key from an address in
 * METRICS_ALLOW_FROM as proxy trust gives it (a client's own X-Forwarded-For is not believed).
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY, METRICS_ALLOW_FROM: '10.0.0.0/8,::1' });
  await ctx.app.listen(0, '127.0.0.1');
  base = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => ctx.app.close());

async function scrape(): Promise<Exposition & { text: string }> {
  const res = await request(ctx.http).get('/metrics').set(asAdmin).expect(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return { ...parseExposition(res.text), text: res.text };
}

/** The counters and histogram counts the steps below move, read from one scrape. */
function figures(e: Exposition) {
  return {
    httpOpen: valueOf(e, 'supportdesk_steps_total', { action: 'open_ticket', transport: 'http' }),
    httpSearch: valueOf(e, 'supportdesk_steps_total', { action: 'search_policy', transport: 'http' }),
    batchOpen: valueOf(e, 'supportdesk_steps_total', { action: 'open_ticket', transport: 'batch' }),
    wsOpen: valueOf(e, 'supportdesk_steps_total', { action: 'open_ticket', transport: 'ws' }),
    httpResets: valueOf(e, 'supportdesk_resets_total', { transport: 'http' }),
    wsResets: valueOf(e, 'supportdesk_resets_total', { transport: 'ws' }),
    stepRequests: valueOf(e, 'supportdesk_http_requests_total', { method: 'POST', route: '/step', status: '200' }),
    stepDurations: valueOf(e, 'supportdesk_http_request_duration_seconds_count', { method: 'POST', route: '/step', status_class: '2xx' }),
    gradings: valueOf(e, 'supportdesk_grading_duration_seconds_count'),
    commits: valueOf(e, 'supportdesk_commit_batch_size_count'),
    committedWrites: valueOf(e, 'supportdesk_commit_batch_size_sum'),
  };
}

it('counts steps and resets exactly, by action and transport, with histograms that agree and no id in any label', async () => {
  const before = figures(await scrape());
  const started = (await request(ctx.http).post('/reset').send({ task_id: 'billing_duplicate_charge', seed: 3 }).expect(200)).body;
  const episode: string = started.episode_id;
  const tickets: string[] = started.observation.inbox.map((t: { ticket_id: string }) => t.ticket_id);
  for (const ticket of tickets.slice(0, 3)) {
    await request(ctx.http).post('/step').send({ episode_id: episode, action: { type: 'open_ticket', ticket_id: ticket } }).expect(200);
  }
  await request(ctx.http).post('/step').send({ episode_id: episode, action: { type: 'search_policy', query: 'refund duplicate charge' } }).expect(200);
  // A retry of a request id is answered from its record: not a step applied.
  for (let i = 0; i < 2; i++) {
    await request(ctx.http).post('/step').send({ episode_id: episode, action: { type: 'open_ticket', ticket_id: tickets[0] }, request_id: 'retried' }).expect(200);
  }
  const batch = (await request(ctx.http).post('/step/batch').send({ items: tickets.slice(0, 2).map((ticket_id) => ({ episode_id: episode, action: { type: 'open_ticket', ticket_id } })) }).expect(200)).body;
  expect(batch.results.map((r: { status: number }) => r.status)).toEqual([200, 200]);
  const ws = await openWsClient(`ws://${base}/ws`);
  const wsStarted = await ws.ask({ type: 'reset', data: { task_id: 'billing_duplicate_charge', seed: 8 } });
  expect((await ws.ask({ type: 'step', data: { type: 'open_ticket', ticket_id: wsStarted.data.observation.inbox[0].ticket_id } })).type).toBe('observation');
  const during = await scrape();
  expect(valueOf(during, 'supportdesk_ws_sessions_open')).toBe(1);
  ws.close();

  const after = await scrape();
  const delta = Object.fromEntries(Object.entries(figures(after)).map(([name, value]) => [name, value - before[name as keyof typeof before]]));
  expect(delta).toMatchObject({ httpOpen: 4, httpSearch: 1, batchOpen: 2, wsOpen: 1, httpResets: 1, wsResets: 1, stepRequests: 6, stepDurations: 6, gradings: 8 });
  // Every write (reset or step) went through a group commit, each told once it was durable.
  expect(delta.committedWrites).toBeGreaterThanOrEqual(10);
  expect(delta.commits).toBeGreaterThanOrEqual(1);
  expect(valueOf(after, 'supportdesk_commit_duration_seconds_count')).toBe(valueOf(after, 'supportdesk_commit_batch_size_count'));
  expect(valueOf(after, 'supportdesk_episodes_active')).toBe(2);
  expect(valueOf(after, 'supportdesk_database_bytes')).toBeGreaterThan(0);
  expect(valueOf(after, 'supportdesk_build_info', { version: APP_VERSION })).toBe(1);
  expect(after.types.get('supportdesk_http_request_duration_seconds')).toBe('histogram');
  expect(after.types.get('process_cpu_user_seconds_total')).toBe('counter');

  const labelValues = after.samples.flatMap((s) => Object.values(s.labels));
  for (const id of [episode, wsStarted.data.episode_id, 'public']) expect(labelValues.filter((value) => value.includes(id))).toEqual([]);
  expect(after.samples.filter((s) => s.name.startsWith('supportdesk_') && 'tenant' in s.labels)).toEqual([]);
});

it('labels HTTP requests by route template, and every path no route matches as one "unmatched" route', async () => {
  await request(ctx.http).get('/no/such/path/7f3e').expect(404);
  await request(ctx.http).get('/state/made-up-episode-9d2c').expect(404);
  const e = await scrape();
  expect(valueOf(e, 'supportdesk_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
  expect(valueOf(e, 'supportdesk_http_requests_total', { method: 'GET', route: '/state/:episode_id', status: '404' })).toBe(1);
  const routes = new Set(e.samples.filter((s) => s.name === 'supportdesk_http_requests_total').map((s) => s.labels.route));
  expect([...routes].filter((route) => /7f3e|9d2c/.test(route))).toEqual([]);
});

describe('access: the admin key, or no key from an address in METRICS_ALLOW_FROM', () => {
  const inject = (remoteAddress: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

  it('refuses no key from another address (401), a tenant key (403) and a wrong key even from an allowed address (401), in the error body', async () => {
    const before = await scrape();
    const refused = await inject('203.0.113.9');
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED', message: expect.stringContaining('METRICS_ALLOW_FROM') });
    // The client's own X-Forwarded-For is not believed: no proxy is trusted here.
    expect((await inject('203.0.113.9', { 'x-forwarded-for': '10.1.2.3' })).statusCode).toBe(401);
    expect((await inject('10.1.2.3', { authorization: 'Bearer not-a-key-at-all' })).statusCode).toBe(401);
    const { key } = await tenantWithKey(ctx.http, 'metrics-lab');
    const forbidden = await request(ctx.http).get('/metrics').set(bearer(key)).expect(403);
    expect(forbidden.body).toMatchObject({ code: 'FORBIDDEN', request_id: expect.any(String) });
    const after = await scrape();
    expect(valueOf(after, 'supportdesk_auth_rejections_total', { reason: 'missing_key' }) - valueOf(before, 'supportdesk_auth_rejections_total', { reason: 'missing_key' })).toBe(2);
    expect(valueOf(after, 'supportdesk_auth_rejections_total', { reason: 'invalid_key' }) - valueOf(before, 'supportdesk_auth_rejections_total', { reason: 'invalid_key' })).toBe(1);
    expect(valueOf(after, 'supportdesk_auth_rejections_total', { reason: 'forbidden' }) - valueOf(before, 'supportdesk_auth_rejections_total', { reason: 'forbidden' })).toBe(1);
  });

  it('serves an allowed address without a key (IPv4 range, and IPv6 ::1)', async () => {
    for (const address of ['10.1.2.3', '::ffff:10.200.0.1', '::1']) {
      const res = await inject(address);
      expect([address, res.statusCode, res.headers['content-type']]).toEqual([address, 200, 'text/plain; version=0.0.4; charset=utf-8']);
      expect(parseExposition(res.body).samples.length).toBeGreaterThan(20);
    }
  });
});
