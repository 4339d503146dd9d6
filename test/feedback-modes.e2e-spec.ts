import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { openWsClient } from './support/ws-client';

/*
 * Evaluation mode on every transport: an episode started with feedback "final" tells the agent nothing about how it
 * is doing (rewards 0; score, components, per-step rewards, explanations and penalties null) until it ends, then
 * everything; the evaluator's audit routes show the score throughout, with the mode.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
let key: string;
let readerKey: string;
const billing = SOLUTIONS.billing_duplicate_charge;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY });
  await ctx.app.listen(0, '127.0.0.1');
  base = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  ({ key, readerKey } = await tenantWithKey(ctx.http, 'feedback-lab'));
});
afterAll(() => ctx.app.close());

const http = () => request(ctx.http);

function expectWithheld(view: any) {
  expect(view).toMatchObject({ feedback: 'final', score: null, components: null });
  for (const action of view.actions ?? []) expect([action.reward, action.score_after]).toEqual([null, null]);
}

it('HTTP: every route the agent reaches withholds the score until the episode ends, then shows it all', async () => {
  const started = (await http().post('/reset').set(bearer(key)).send({ variant: 'canonical', seed: 4, feedback: 'final' }).expect(200)).body;
  expect(started).toMatchObject({ reward: 0, info: { feedback: 'final', score: null }, observation: { score: null } });
  const id = started.episode_id;
  for (const action of billing.actions.slice(0, -1)) {
    const step = (await http().post('/step').set(bearer(key)).send({ episode_id: id, action }).expect(200)).body;
    expect(step).toMatchObject({ reward: 0, done: false, info: { score: null }, observation: { score: null } });
  }
  expectWithheld((await http().get(`/state/${id}`).set(bearer(key)).expect(200)).body);
  expectWithheld((await http().get('/state').set(bearer(key)).expect(200)).body);
  const grade = (await http().post('/grader').set(bearer(key)).send({ episode_id: id }).expect(200)).body;
  expect(grade).toMatchObject({ feedback: 'final', score: null, components: null, reply_details: null, penalties: null });
  // The evaluator sees the score and the mode while it runs.
  const audited = (await http().get(`/episodes/${id}`).set(bearer(readerKey)).expect(200)).body;
  expect(audited).toMatchObject({ feedback: 'final', score: 0.7, status: 'active', penalties: [] });
  expect((await http().get(`/episodes/${id}/actions`).set(bearer(readerKey)).expect(200)).body.actions.map((a: any) => a.reward)).toEqual([0.05, 0.1, 0.15, 0.2, 0.2]);

  const last = (await http().post('/step').set(bearer(key)).send({ episode_id: id, action: billing.actions.at(-1) }).expect(200)).body;
  expect(last).toMatchObject({ reward: 1, done: true, info: { score: 1 }, observation: { score: 1 } });
  const ended = (await http().post('/grader').set(bearer(key)).send({ episode_id: id }).expect(200)).body;
  expect(ended).toMatchObject({ score: 1, penalties: [] });
  expect(ended.components).toHaveLength(6);
  expect(ended.reply_details.every((d: any) => d.covered && d.description)).toBe(true);
  expect((await http().get(`/state/${id}`).set(bearer(key)).expect(200)).body.actions.map((a: any) => a.reward)).toEqual([0.05, 0.1, 0.15, 0.2, 0.2, 0.3]);
});

it('HTTP: dense is the default; an unknown mode is a 422 naming the field, and starts nothing', async () => {
  const dense = (await http().post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200)).body;
  expect(dense.info).toMatchObject({ feedback: 'dense', score: 0 });
  const before = (await http().get('/episodes').set(bearer(readerKey)).expect(200)).body.items.length;
  const refused = (await http().post('/reset').set(bearer(key)).send({ variant: 'canonical', feedback: 'sparse' }).expect(422)).body;
  expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'feedback', message: 'feedback must be one of: dense, final' }] });
  expect((await http().get('/episodes').set(bearer(readerKey)).expect(200)).body.items.length).toBe(before);
});

it('/ws: the reset takes the mode; observations and the state message withhold the score until the end', async () => {
  const client = await openWsClient(`ws://${base}/ws`, bearer(key));
  const started = await client.ask({ type: 'reset', data: { variant: 'canonical', task_id: 'security_compromised_account', seed: 2, feedback: 'final' } });
  expect(started.data).toMatchObject({ reward: 0, info: { feedback: 'final', score: null } });
  const actions = SOLUTIONS.security_compromised_account.actions;
  const rewards: number[] = [];
  for (const action of actions) rewards.push((await client.ask({ type: 'step', data: action })).data.reward);
  expect(rewards).toEqual([...actions.slice(0, -1).map(() => 0), 1]);
  expect((await client.ask({ type: 'state' })).data).toMatchObject({ feedback: 'final', score: 1 });

  const again = await client.ask({ type: 'reset', data: { variant: 'canonical', feedback: 'final' } });
  await client.ask({ type: 'step', data: billing.actions[0] });
  expectWithheld((await client.ask({ type: 'state' })).data);
  expect(again.data.observation.score).toBeNull();
  const refused = await client.ask({ type: 'reset', data: { variant: 'canonical', feedback: 'none' } });
  expect(refused).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
  expect(JSON.stringify(refused.data)).toContain('feedback must be one of: dense, final');
  client.ws.close();
});

it('MCP: view_inbox has no score and tool calls no reward while a final episode runs', async () => {
  const id = (await http().post('/reset').set(bearer(key)).send({ variant: 'canonical', feedback: 'final', seed: 8 }).expect(200)).body.episode_id;
  const client = new Client({ name: 'eval-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${base}/mcp`), { requestInit: { headers: { ...bearer(key), 'x-episode-id': id } } }));
  const opened = await client.callTool({ name: 'open_ticket', arguments: { ticket_id: billing.targetTicketId } });
  expect(opened.structuredContent).toMatchObject({ reward: 0, info: { score: null } });
  const inbox = await client.callTool({ name: 'view_inbox', arguments: {} });
  expect(inbox.isError).toBe(false);
  expect(inbox.structuredContent).toMatchObject({ score: null, step_count: 1 });
  await client.close();
});

it('OpenEnv session/create takes the mode, and refuses an unknown one as invalid params', async () => {
  const rpc = async (method: string, params: Record<string, unknown>) =>
    (await http().post('/mcp').auth('openenv', key).send({ jsonrpc: '2.0', id: 1, method, params }).expect(200)).body;
  const created = (await rpc('openenv/session/create', { variant: 'canonical', feedback: 'final', seed: 1 })).result;
  expect(created).toMatchObject({ info: { feedback: 'final', score: null }, observation: { score: null } });
  const called = await rpc('tools/call', { session_id: created.session_id, name: 'open_ticket', arguments: { ticket_id: billing.targetTicketId } });
  expect(called.result.data).toMatchObject({ reward: 0, info: { score: null } });
  expect((await rpc('openenv/session/create', { variant: 'canonical', feedback: 'loud' })).error).toMatchObject({ code: -32602, data: { details: [{ field: 'feedback' }] } });
});
