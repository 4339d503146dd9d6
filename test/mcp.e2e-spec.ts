import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;
let keyA: string;
let keyB: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY });
  await ctx.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  keyA = (await tenantWithKey(ctx.http, 'mcp-a')).key;
  keyB = (await tenantWithKey(ctx.http, 'mcp-b')).key;
});
afterAll(() => ctx.app.close());

async function connect(key: string, episodeId?: string): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const headers: Record<string, string> = { ...bearer(key), ...(episodeId ? { 'x-episode-id': episodeId } : {}) };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } }));
  return client;
}

const text = (result: any) => result.content[0].text as string;

it('lists one tool per action with the action schema as input, plus read-only views, and no reset or grade', async () => {
  const client = await connect(keyA);
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual([
    'open_ticket', 'search_policy', 'set_priority', 'route_ticket', 'send_reply', 'resolve_ticket', 'view_inbox', 'view_ticket',
  ]);
  const priority = tools.find((t) => t.name === 'set_priority')!;
  expect(priority.inputSchema.required).toEqual(['priority']);
  expect((priority.inputSchema.properties as any).priority.enum).toEqual(['low', 'normal', 'high', 'urgent']);
  const schema = (await request(ctx.http).get('/action_schema').expect(200)).body;
  expect((tools.find((t) => t.name === 'send_reply')!.inputSchema.properties as any).message).toEqual(schema.$defs.SendReplyAction.properties.message);
  expect(tools.some((t) => /reset|grade/.test(t.name))).toBe(false);
  await client.close();
});

it('plays a whole episode through tools/call on the bound episode, persisted like HTTP steps', async () => {
  const started = (await request(ctx.http).post('/reset').set(bearer(keyA)).send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 8 }).expect(200)).body;
  const client = await connect(keyA, started.episode_id);
  const inbox = JSON.parse(text(await client.callTool({ name: 'view_inbox', arguments: {} })));
  expect(inbox.inbox).toHaveLength(5);
  let last: any;
  for (const { type, ...args } of SOLUTIONS.billing_duplicate_charge.actions) {
    const result: any = await client.callTool({ name: type, arguments: args });
    expect(result.isError).toBeFalsy();
    last = JSON.parse(text(result));
  }
  expect(last).toMatchObject({ done: true, info: { score: 1 } });
  const state = (await request(ctx.http).get(`/state/${started.episode_id}`).set(bearer(keyA)).expect(200)).body;
  expect(state.actions).toHaveLength(6);
  await client.close();
});

it('reports invalid arguments as a tool error the model can read, and an unknown tool as JSON-RPC -32602, changing nothing', async () => {
  const id = (await request(ctx.http).post('/reset').set(bearer(keyA)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
  const client = await connect(keyA, id);
  const bad: any = await client.callTool({ name: 'set_priority', arguments: { priority: 'critical' } });
  expect(bad.isError).toBe(true);
  expect(bad.structuredContent).toBeUndefined();
  expect(text(bad)).toMatch(/^priority must be one of/);
  await expect(client.callTool({ name: 'reset', arguments: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool: reset/) });
  expect((await request(ctx.http).get(`/state/${id}`).set(bearer(keyA)).expect(200)).body.step_count).toBe(0);
  await client.close();
});

it("cannot touch another tenant's episode, by argument or by binding", async () => {
  const foreign = (await request(ctx.http).post('/reset').set(bearer(keyA)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
  const client = await connect(keyB);
  const result: any = await client.callTool({ name: 'open_ticket', arguments: { ticket_id: 'T-1041', episode_id: foreign } });
  expect(result.isError).toBe(true);
  expect(text(result)).toMatch(/no episode/);
  await client.close();
  await expect(connect(keyB, foreign)).rejects.toThrow();
  expect((await request(ctx.http).get(`/state/${foreign}`).set(bearer(keyA)).expect(200)).body.step_count).toBe(0);
});

it.each([
  ['an empty object', {}, -32600],
  ['an MCP request with no session', { jsonrpc: '2.0', id: 3, method: 'prompts/list' }, -32000],
  ['an array of junk', [1, 2], -32600],
])('%s gets HTTP 200 with a JSON-RPC error envelope', async (_name, body, code) => {
  const res = await request(ctx.http).post('/mcp').send(body).expect(200);
  expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code } });
});

it('malformed JSON gets a JSON-RPC parse error with HTTP 200', async () => {
  const res = await request(ctx.http).post('/mcp').set('content-type', 'application/json').send('{"jsonrpc": ').expect(200);
  expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the body is not valid JSON' } });
});
