import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { GenericEnvClient, McpToolClient } from './support/openenv-clients';
import { latestFamily } from '../src/families';
import { referenceRun } from '../tools/validity/solvers';
import { ADMIN_KEY, CHAIN_KEY, bearer, issueKey, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';

/*
 * OpenEnv's own clients, unchanged (ported message for message in support/openenv-clients.ts), against a server
 * that requires keys, as the compose default does: the key travels as the password of the base URL's user-info,
 * the only way those clients can send one.
 */

const DEFAULT_TASK = 'billing_duplicate_charge';
const TOOL_NAMES = ['open_ticket', 'search_policy', 'set_priority', 'route_ticket', 'send_reply', 'resolve_ticket', 'view_inbox', 'view_ticket'];

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let port: number;
let key: string;
let readerKey: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY, MAX_SESSIONS_PER_TENANT: '4' });
  await ctx.app.listen(0, '127.0.0.1');
  port = (ctx.app.getHttpServer().address() as AddressInfo).port;
  ({ key, readerKey } = await tenantWithKey(ctx.http, 'openenv-lab'));
});

afterAll(async () => {
  await ctx?.app.close();
});

/** What a user writes: the key as the password of the base URL (any user name; OpenEnv sends no headers). */
function baseUrl(secret = key, user = 'openenv'): string {
  return `http://${user}:${encodeURIComponent(secret)}@127.0.0.1:${port}`;
}

async function stepCount(episodeId: string, secret = key): Promise<number> {
  return (await request(ctx.http).get(`/state/${episodeId}`).set(bearer(secret)).expect(200)).body.step_count;
}

describe('GenericEnvClient over /ws, keys required', () => {
  it.each(Object.keys(SOLUTIONS))('plays %s to 1.0 with the key in the URL', async (taskId) => {
    const env = new GenericEnvClient(baseUrl());
    await env.connect();
    const started = await env.reset({ variant: 'canonical', task_id: taskId, seed: 7 });
    expect(started.done).toBe(false);
    let last = started;
    for (const action of SOLUTIONS[taskId].actions) last = await env.step(action);
    expect(last.done).toBe(true);
    const state = await env.state();
    expect(state).toMatchObject({ task_id: taskId, status: 'resolved', score: 1 });
    await env.close();
  });

  it('cannot connect without the key, or with a wrong one', async () => {
    await expect(new GenericEnvClient(`http://127.0.0.1:${port}`).connect()).rejects.toThrow(/HTTP 401/);
    await expect(new GenericEnvClient(baseUrl('not-a-key')).connect()).rejects.toThrow(/HTTP 401/);
  });

  it('accepts the key as the user name alone (ws://KEY@host), as some users write it', async () => {
    const env = new GenericEnvClient(`http://${encodeURIComponent(key)}@127.0.0.1:${port}`);
    const started = await env.reset({ variant: 'canonical' });
    expect(started.observation.task_id).toBe(DEFAULT_TASK);
    await env.close();
  });
});

describe("MCPToolClient, default mode (tools as /ws step messages)", () => {
  it('lists the tools before any reset, as OpenEnv allows', async () => {
    const env = new McpToolClient(baseUrl());
    await env.connect();
    const tools = await env.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const tool of tools) {
      expect(tool.description).not.toBe('');
      expect(tool.input_schema).toMatchObject({ type: 'object', additionalProperties: false });
    }
    await env.close();
  });

  it.each(Object.keys(SOLUTIONS))('plays %s to 1.0 through call_tool, with the reward and done of each step', async (taskId) => {
    const env = new McpToolClient(baseUrl());
    await env.connect();
    const started = await env.reset({ variant: 'canonical', task_id: taskId });
    const episodeId = started.observation.episode_id ?? (await env.state()).episode_id;
    const inbox = await env.callTool('view_inbox');
    expect(inbox).toMatchObject({ episode_id: episodeId, step_count: 0 });
    const rewards: number[] = [];
    let last: any;
    for (const { type, ...args } of SOLUTIONS[taskId].actions) {
      const step = await env.callToolStep(type, args);
      expect(step.observation.error).toBeNull();
      expect(step.reward).toBe(step.observation.result.data.reward);
      expect(step.observation.result).toMatchObject({ isError: false, structuredContent: step.observation.result.data });
      rewards.push(step.reward!);
      last = step;
    }
    expect(last.done).toBe(true);
    expect(last.observation.result.data.info).toMatchObject({ status: 'resolved', score: 1 });
    expect(rewards.length).toBe(SOLUTIONS[taskId].actions.length);
    await env.close();
  });

  it('call_tool returns the data the way the client unwraps it, and raises with OpenEnv error types', async () => {
    const env = new McpToolClient(baseUrl());
    await env.connect();
    await env.reset({ variant: 'canonical' });
    const { episode_id } = await env.state();
    const opened = await env.callTool('open_ticket', { ticket_id: SOLUTIONS[DEFAULT_TASK].targetTicketId });
    expect(opened).toMatchObject({ episode_id, reward: expect.any(Number), observation: { step_count: 1 } });
    await expect(env.callTool('reset')).rejects.toThrow("Tool 'reset' failed: Unknown tool: reset (type: tool_not_found)");
    await expect(env.callTool('set_priority', { priority: 'critical' })).rejects.toThrow(/priority must be one of.*\(type: invalid_args\)/);
    await expect(env.callTool('view_ticket', { verbose: true })).rejects.toThrow(/\(type: invalid_args\)/);
    expect(await stepCount(episode_id)).toBe(1);
    const ticket = await env.callTool('view_ticket');
    expect(ticket.active_ticket.ticket_id).toBe(SOLUTIONS[DEFAULT_TASK].targetTicketId);
    await env.close();
  });

  it('call_tool before any reset and malformed tool messages are refused, nothing changed', async () => {
    const env = new McpToolClient(baseUrl());
    await env.connect();
    await expect(env.callTool('open_ticket', { ticket_id: 'T-1' })).rejects.toThrow(/no episode.*\(type: execution_error\)/);
    await env.close();
    // Hand-made tool messages (MCPToolClient always sends well-formed ones), through the generic client.
    const raw = new GenericEnvClient(baseUrl());
    await expect(raw.step({ type: 'call_tool', arguments: {} })).rejects.toThrow(/tool_name is required \(code: VALIDATION_ERROR\)/);
    await expect(raw.step({ type: 'call_tool', tool_name: 'view_inbox', arguments: [] })).rejects.toThrow(/arguments must be an object/);
    await expect(raw.step({ type: 'list_tools', tool_schema: 'loose' })).rejects.toThrow(/tool_schema must be one of: full, strict/);
    await expect(raw.step({ type: 'list_tools', extra: 1 })).rejects.toThrow(/property extra should not exist/);
    const strict = await raw.step({ type: 'list_tools', tool_schema: 'strict' });
    expect(strict.observation.tools.find((t: any) => t.name === 'view_inbox').input_schema.required).toEqual(['episode_id']);
    await raw.close();
  });
});

describe('MCPToolClient, production mode (JSON-RPC on HTTP /mcp without initialize)', () => {
  it(`plays ${DEFAULT_TASK} to 1.0: session/create, tools/list, tools/call, session/close, every request with the key`, async () => {
    const env = new McpToolClient(baseUrl());
    env.useProductionMode = true;
    await env.connect(); // `async with MCPToolClient(...)` opens the socket too
    const tools = await env.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    const sessionId = env.sessionId!;
    const created = env.exchanges[0].response.result;
    expect(created).toMatchObject({ session_id: sessionId, tool_schema: 'full', observation: { task_id: DEFAULT_TASK }, done: false });
    // A session created without parameters draws an instance of the default task; the reference solver's actions
    // for that instance (from its seed) play it to the end.
    expect(created.info).toMatchObject({ variant: 'generated', task_id: DEFAULT_TASK });
    const { actions } = referenceRun(latestFamily(DEFAULT_TASK)!.generate(created.info.seed), created.info.seed);
    let last: any;
    for (const { type, ...args } of actions) last = await env.callTool(type, args);
    expect(last).toMatchObject({ episode_id: created.episode_id, done: true, info: { status: 'resolved', score: 1 } });
    await env.close();
    const closing = env.exchanges[env.exchanges.length - 1];
    expect(closing.request).toMatchObject({ method: 'openenv/session/close', params: { session_id: sessionId } });
    expect(closing.response.result).toEqual({ session_id: sessionId, closed: true });
    for (const exchange of env.exchanges) {
      expect(exchange.status).toBe(200);
      expect(exchange.authorization).toMatch(/^Basic /);
      expect(exchange.url).toBe(`http://127.0.0.1:${port}/mcp`);
    }
    // The session is gone; the episode is not.
    const after = await rpc('tools/call', { session_id: sessionId, name: 'view_inbox', arguments: {} });
    expect(after.error).toEqual({ code: -32602, message: `Unknown session_id: ${sessionId}` });
    expect((await request(ctx.http).get(`/state/${created.episode_id}`).set(bearer(key)).expect(200)).body.score).toBe(1);
  });

  it('session/create takes what a reset takes (task, seed, labels) and the strict tool schema', async () => {
    const taskId = 'security_compromised_account';
    const created = await rpc('openenv/session/create', { variant: 'canonical', task_id: taskId, seed: 3, run_label: 'prod-mode', tool_schema: 'strict' });
    expect(created.result).toMatchObject({ tool_schema: 'strict', observation: { task_id: taskId } });
    const sessionId = created.result.session_id;
    const listed = await rpc('tools/list', { session_id: sessionId });
    const open = listed.result.tools.find((t: any) => t.name === 'open_ticket');
    expect(open.inputSchema.required).toEqual(['ticket_id', 'episode_id']);
    // What a strict model sends: every property, null for the ones it leaves out.
    const called = await rpc('tools/call', { session_id: sessionId, name: 'open_ticket', arguments: { ticket_id: SOLUTIONS[taskId].targetTicketId, episode_id: null } });
    expect(called.result.data).toMatchObject({ episode_id: created.result.episode_id, observation: { step_count: 1 } });
    const audited = (await request(ctx.http).get(`/episodes/${created.result.episode_id}`).set(bearer(readerKey)).expect(200)).body;
    expect(audited).toMatchObject({ run_label: 'prod-mode', seed: 3, task_id: taskId });
    // Closing the session leaves the episode active and resumable over HTTP.
    expect((await rpc('openenv/session/close', { session_id: sessionId })).result).toEqual({ session_id: sessionId, closed: true });
    expect((await request(ctx.http).get(`/state/${created.result.episode_id}`).set(bearer(key)).expect(200)).body.status).toBe('active');
  });

  it('refuses bad session/create params as invalid params, creating nothing', async () => {
    const before = (await request(ctx.http).get('/episodes').set(bearer(readerKey)).expect(200)).body.items.length;
    expect((await rpc('openenv/session/create', { variant: 'canonical', task_id: 'no_such_task' })).error).toMatchObject({ code: -32602, data: { status: 422 } });
    expect((await rpc('openenv/session/create', { variant: 'canonical', seed: 'x' })).error).toMatchObject({ code: -32602, data: { details: [{ field: 'seed' }] } });
    expect((await rpc('openenv/session/create', { variant: 'canonical', tool_schema: 'loose' })).error).toMatchObject({ code: -32602, message: 'tool_schema must be one of: full, strict' });
    expect((await rpc('openenv/session/create', [] as never)).error).toMatchObject({ code: -32602, message: 'Params must be an object' });
    expect((await request(ctx.http).get('/episodes').set(bearer(readerKey)).expect(200)).body.items.length).toBe(before);
  });

  it('answers unknown sessions, methods and tools as OpenEnv does', async () => {
    expect((await rpc('tools/list', { session_id: 'nope' })).error).toEqual({ code: -32602, message: 'Unknown session_id: nope' });
    expect((await rpc('openenv/session/close', { session_id: 'nope' })).error).toEqual({ code: -32602, message: 'Unknown session_id: nope' });
    expect((await rpc('openenv/session/close', {})).error).toEqual({ code: -32602, message: "Invalid params - 'session_id' is required" });
    expect((await rpc('openenv/session/rename', {})).error).toMatchObject({ code: -32601 });
    const session = (await rpc('openenv/session/create', { variant: 'canonical' })).result.session_id;
    expect((await rpc('tools/call', { session_id: session, name: 'reset', arguments: {} })).error).toMatchObject({ code: -32602, message: 'Tool not found: reset' });
    expect((await rpc('tools/call', { session_id: session, arguments: {} })).error).toMatchObject({ code: -32602, message: "Missing 'name' in params" });
    const invalid = await rpc('tools/call', { session_id: session, name: 'set_priority', arguments: { priority: 'critical' } });
    expect(invalid.error).toMatchObject({ code: -32602, data: { error_type: 'invalid_args', details: [{ field: 'priority' }] } });
    // Without a session, tools can still be listed (stateless, as OpenEnv answers it).
    expect((await rpc('tools/list', {})).result.tools.map((t: any) => t.name)).toEqual(TOOL_NAMES);
    await rpc('openenv/session/close', { session_id: session });
  });

  it("a session belongs to the tenant and key that created it: anyone else is told it does not exist", async () => {
    const session = (await rpc('openenv/session/create', { variant: 'canonical' })).result;
    const other = await tenantWithKey(ctx.http, 'openenv-other');
    const sameTenantOtherKey = await issueKey(ctx.http, 'openenv-lab');
    for (const stranger of [other.key, sameTenantOtherKey.key]) {
      const res = await rpc('tools/call', { session_id: session.session_id, name: 'view_inbox', arguments: {} }, stranger);
      expect(res.error).toEqual({ code: -32602, message: `Unknown session_id: ${session.session_id}` });
      expect((await rpc('openenv/session/close', { session_id: session.session_id }, stranger)).error.code).toBe(-32602);
    }
    expect(await stepCount(session.episode_id)).toBe(0);
    await rpc('openenv/session/close', { session_id: session.session_id });
  });

  it('refuses a session past the tenant cap with -32000 and the counts in data', async () => {
    const crowded = await tenantWithKey(ctx.http, 'openenv-crowded');
    const sessions: string[] = [];
    for (let i = 0; i < 4; i++) sessions.push((await rpc('openenv/session/create', { variant: 'canonical' }, crowded.key)).result.session_id);
    const refused = await rpc('openenv/session/create', { variant: 'canonical' }, crowded.key);
    expect(refused.error).toMatchObject({ code: -32000, data: { active_sessions: 4, max_sessions: 4 } });
    await rpc('openenv/session/close', { session_id: sessions[0] }, crowded.key);
    expect((await rpc('openenv/session/create', { variant: 'canonical' }, crowded.key)).result.session_id).toEqual(expect.any(String));
  });

  it('with a revoked key the session ends', async () => {
    const issued = await issueKey(ctx.http, 'openenv-lab');
    const session = (await rpc('openenv/session/create', { variant: 'canonical' }, issued.key)).result.session_id;
    await request(ctx.http).delete(`/admin/tenants/openenv-lab/keys/${issued.keyId}`).set(bearer(ADMIN_KEY)).expect(200);
    const res = await request(ctx.http).post('/mcp').set(bearer(issued.key)).send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { session_id: session } });
    expect(res.status).toBe(401);
    // Even if the key were valid again, the session is gone.
    expect((await rpc('tools/list', { session_id: session })).error).toMatchObject({ code: -32602 });
  });
});

describe('the key as HTTP Basic on HTTP routes', () => {
  it('takes the key as the password, or as the user name alone', async () => {
    const started = await request(ctx.http).post('/reset').auth('anyone', key).send({ variant: 'canonical' }).expect(200);
    await request(ctx.http).get(`/state/${started.body.episode_id}`).set('Authorization', `Basic ${Buffer.from(key).toString('base64')}`).expect(200);
    await request(ctx.http).get(`/state/${started.body.episode_id}`).auth('anyone', 'wrong').expect(401);
    const malformed = await request(ctx.http).get('/state').set('Authorization', 'Basic').expect(401);
    expect(malformed.body).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it("accepts OpenEnv's timeout_s on POST /step (not used: steps never wait) and checks it", async () => {
    const started = (await request(ctx.http).post('/reset').auth('x', key).send({ variant: 'canonical' }).expect(200)).body;
    const action = { type: 'open_ticket', ticket_id: SOLUTIONS[DEFAULT_TASK].targetTicketId };
    await request(ctx.http).post('/step').auth('x', key).send({ episode_id: started.episode_id, action, timeout_s: 30 }).expect(200);
    for (const timeout_s of [0, -1, 'soon', 1e9]) {
      const res = await request(ctx.http).post('/step').auth('x', key).send({ episode_id: started.episode_id, action, timeout_s }).expect(422);
      expect(res.body.details[0].field).toBe('timeout_s');
    }
    expect(await stepCount(started.episode_id)).toBe(1);
  });
});

async function rpc(method: string, params: Record<string, unknown>, secret = key): Promise<any> {
  const res = await request(ctx.http).post('/mcp').auth('openenv', secret).send({ jsonrpc: '2.0', id: 1, method, params }).expect(200);
  return res.body;
}
