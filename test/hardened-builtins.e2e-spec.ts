import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { hardenBuiltins, hardenedBuiltins } from '../src/common/harden-builtins';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { openWsClient } from './support/ws-client';

/*
 * The start-up backstop (main.ts freezes Object.prototype and its methods once the app is built) must break
 * nothing: this file hardens its own realm exactly as main.ts does, then drives every transport and route family.
 * CI also runs the whole suite this way (SUPPORTDESK_TEST_HARDEN_BUILTINS=1).
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
let key: string;
let reader: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY });
  await ctx.app.listen(0, '127.0.0.1');
  base = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  hardenBuiltins();
  ({ key, readerKey: reader } = await tenantWithKey(ctx.http, 'hardened'));
});
afterAll(() => ctx.app.close());

it('freezes the built-ins pollution writes to, so a write through them fails instead of spreading', () => {
  for (const builtin of hardenedBuiltins()) expect(Object.isFrozen(builtin)).toBe(true);
  expect(() => {
    'use strict';
    (Object.prototype as Record<string, unknown>).polluted = 1;
  }).toThrow(TypeError);
  expect(() => Object.assign(Object.prototype.toString, { priority: 'urgent' })).toThrow(TypeError);
});

it.each(Object.keys(SOLUTIONS))('plays %s to 1.0 over HTTP, and audits, verifies and exports it', async (taskId) => {
  const id = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', task_id: taskId, seed: 4, tags: ['x'] }).expect(200)).body.episode_id;
  let last: any;
  for (const [i, action] of SOLUTIONS[taskId].actions.entries()) {
    last = (await request(ctx.http).post('/step').set(bearer(key)).send({ episode_id: id, action, request_id: `r-${i}` }).expect(200)).body;
  }
  expect(last.info.score).toBe(1);
  await request(ctx.http).post('/grader').set(bearer(key)).send({ episode_id: id }).expect(200);
  await request(ctx.http).get(`/state/${id}`).set(bearer(key)).expect(200);
  expect((await request(ctx.http).get(`/episodes/${id}/verify`).set(bearer(reader)).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true });
  await request(ctx.http).get(`/episodes?task_id=${taskId}&tag=x`).set(bearer(reader)).expect(200);
  await request(ctx.http).get('/stats?group_by=agent').set(bearer(reader)).expect(200);
  const exported = await request(ctx.http).get('/episodes/export?format=jsonl').set(bearer(reader)).expect(200);
  expect(exported.text.trim().split('\n').length).toBeGreaterThan(0);
});

it('answers client mistakes with their 4xx, not a 500', async () => {
  await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', task_id: 'nope' }).expect(422);
  await request(ctx.http).post('/step').set(bearer(key)).send({ episode_id: 'missing', action: { type: 'open_ticket', ticket_id: 'T-1' } }).expect(404);
  await request(ctx.http).post('/baseline').set(bearer(key)).set('content-type', 'application/json').send('[]').expect((res) => expect(res.status).toBeLessThan(500));
  await request(ctx.http).post('/reset').set(bearer(key)).set('content-type', 'application/json').send('{"a": ').expect(400);
  await request(ctx.http).post('/reset').set(bearer(key)).set('content-type', 'text/plain').send('hi').expect(415);
  await request(ctx.http).post('/reset').set(bearer('sdk_wrong')).send({ variant: 'canonical' }).expect(401);
  await request(ctx.http).get('/admin/tenants').set(bearer(key)).expect(403);
  await request(ctx.http).get('/admin/tenants').set(bearer(ADMIN_KEY)).expect(200);
  await request(ctx.http).post('/baseline').set(bearer(key)).send({ task_ids: ['billing_duplicate_charge'] }).expect(200);
  await request(ctx.http).get('/openapi.json').expect(200);
  await request(ctx.http).get('/docs/').expect(200);
  await request(ctx.http).get('/metadata').expect(200);
  await request(ctx.http).get('/schema').expect(200);
});

it('plays a full episode over /ws', async () => {
  const { ask, close } = await openWsClient(`ws://${base}/ws`, bearer(key));
  await ask({ type: 'reset', data: { variant: 'canonical', task_id: 'security_compromised_account', seed: 2 } });
  let last: any;
  for (const action of SOLUTIONS.security_compromised_account.actions) last = await ask({ type: 'step', data: action });
  expect(last.data).toMatchObject({ done: true, info: { score: 1 } });
  expect((await ask({ type: 'state' })).type).toBe('state');
  expect((await ask({ type: 'step', data: { type: 'nope' } })).data.code).toBe('VALIDATION_ERROR');
  close();
});

it('plays a full episode over /mcp with the official SDK client', async () => {
  const id = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', task_id: 'logistics_missing_order_vip', seed: 2 }).expect(200)).body.episode_id;
  const client = new Client({ name: 'hardened', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${base}/mcp`), { requestInit: { headers: { ...bearer(key), 'x-episode-id': id } } }));
  expect((await client.listTools()).tools.length).toBeGreaterThan(6);
  let last: any;
  for (const { type, ...args } of SOLUTIONS.logistics_missing_order_vip.actions) last = await client.callTool({ name: type, arguments: args });
  expect(JSON.parse(last.content[0].text)).toMatchObject({ done: true, info: { score: 1 } });
  await client.close();
});
