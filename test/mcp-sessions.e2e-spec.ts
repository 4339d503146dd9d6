import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { Agent, fetch as undiciFetch } from 'undici';
import { ManualClock } from '../src/common/clock';
import { ADMIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { freshDatabaseUrl, startTestApp } from './support/test-app';

/*
 * /mcp sessions are rows of the database, not state of a server process (docs/replicas.md): a session opened on one
 * server is served by another on the same database, and by the same server after a restart; it ends for everyone
 * when its client closes it or it stays idle past SESSION_IDLE_TIMEOUT_MS. Two apps on one database stand for two
 * replicas (test/replicas/ runs the real thing: two processes behind HAProxy on PostgreSQL).
 */

type Served = Awaited<ReturnType<typeof startTestApp>> & { base: string };

const clock = new ManualClock('2026-12-04T09:00:00Z');
const databaseUrl = freshDatabaseUrl();
let first: Served;
let second: Served;
let key: string;

async function serve(overrides: Record<string, string> = {}): Promise<Served> {
  const ctx = await startTestApp(databaseUrl, { ADMIN_API_KEY: ADMIN_KEY, SESSION_IDLE_TIMEOUT_MS: '60000', MAX_SESSIONS_PER_TENANT: '5', ...overrides }, { clock });
  await ctx.app.listen(0, '127.0.0.1');
  return { ...ctx, base: `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}` };
}

beforeAll(async () => {
  first = await serve();
  second = await serve();
  key = (await tenantWithKey(first.http, 'sessions')).key;
});
afterAll(async () => {
  await first.app.close();
  await second.app.close();
});

/** An MCP SDK client whose requests go to whichever server `route` names for the request's count (0, 1, 2…). */
async function mcpClient(route: (n: number) => Served): Promise<{ client: Client; transport: StreamableHTTPClientTransport; served: string[] }> {
  let n = 0;
  const served: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${first.base}/mcp`), {
    requestInit: { headers: bearer(key) },
    fetch: (url, init) => {
      const target = route(n++);
      served.push(target === first ? 'first' : 'second');
      return fetch(String(url).replace(first.base, target.base), init);
    },
  });
  const client = new Client({ name: 'replica-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, served };
}

const rpc = (server: Served, body: object, sessionId?: string) => {
  const call = request(server.http).post('/mcp').set(bearer(key)).set('accept', 'application/json, text/event-stream');
  return (sessionId ? call.set('mcp-session-id', sessionId) : call).send({ jsonrpc: '2.0', id: 1, ...body });
};

it('an MCP session initialized on one server is served by the other, every request alternating, and ended there for both', async () => {
  const { client, transport, served } = await mcpClient((n) => (n % 2 === 0 ? first : second));
  const reset = await request(first.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toContain('open_ticket');
  for (let i = 0; i < 4; i++) {
    const result = await client.callTool({ name: 'view_inbox', arguments: { episode_id: reset.body.episode_id } });
    expect(result.isError).toBeFalsy();
  }
  expect(new Set(served)).toEqual(new Set(['first', 'second']));
  const sessionId = transport.sessionId!;
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  await transport.terminateSession();
  for (const server of [first, second]) {
    expect((await rpc(server, { method: 'tools/list' }, sessionId)).status).toBe(404);
  }
  await client.close();
});

it('an OpenEnv HTTP session created on one server is served and closed by the other', async () => {
  const created = await rpc(first, { method: 'openenv/session/create', params: { variant: 'canonical' } }).expect(200);
  const sessionId = created.body.result.session_id as string;
  const call = await rpc(second, { method: 'tools/call', params: { session_id: sessionId, name: 'view_inbox', arguments: {} } }).expect(200);
  expect(call.body.result.data).toBeDefined();
  expect((await rpc(second, { method: 'openenv/session/close', params: { session_id: sessionId } })).body.result).toEqual({ session_id: sessionId, closed: true });
  expect((await rpc(first, { method: 'tools/list', params: { session_id: sessionId } })).body.error.message).toBe(`Unknown session_id: ${sessionId}`);
});

it('a session outlives the server that opened it: a restarted server serves it', async () => {
  const restarting = await serve();
  const init = await rpc(restarting, { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }).expect(200);
  const sessionId = init.headers['mcp-session-id'];
  await restarting.app.close();
  const restarted = await serve();
  try {
    const listed = await rpc(restarted, { method: 'tools/list' }, sessionId).expect(200);
    expect(listed.headers['mcp-session-id']).toBe(sessionId);
    expect(listed.body.result.tools.length).toBeGreaterThan(0);
  } finally {
    await restarted.app.close();
  }
});

it('a session idle past SESSION_IDLE_TIMEOUT_MS is over on every server; one in use stays open however long it lives', async () => {
  const init = await rpc(first, { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }).expect(200);
  const used = init.headers['mcp-session-id'];
  const idle = (await rpc(first, { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }).expect(200)).headers['mcp-session-id'];
  for (let i = 0; i < 3; i++) {
    clock.advance(40_000);
    await rpc(i % 2 === 0 ? second : first, { method: 'tools/list' }, used).expect(200);
  }
  for (const server of [first, second]) {
    expect((await rpc(server, { method: 'tools/list' }, idle)).status).toBe(404);
    expect((await rpc(server, { method: 'tools/list' }, used)).status).toBe(200);
  }
});

it('MAX_SESSIONS_PER_TENANT counts the sessions opened on every server together', async () => {
  const own = (await tenantWithKey(first.http, 'capped')).key;
  const opened = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      request((i % 2 === 0 ? first : second).http)
        .post('/mcp')
        .set(bearer(own))
        .set('accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: i, method: i % 3 === 0 ? 'openenv/session/create' : 'initialize', params: i % 3 === 0 ? { variant: 'canonical' } : { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }),
    ),
  );
  const refused = opened.filter((response) => response.body.error?.message?.startsWith('Session capacity reached'));
  expect(opened.length - refused.length).toBe(5);
  expect(refused[0].body.error.data).toEqual({ active_sessions: 5, max_sessions: 5 });
});

it("a session's server-to-client stream is one at a time, and ends with its session", async () => {
  const init = await rpc(first, { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } }).expect(200);
  const sessionId = init.headers['mcp-session-id'];
  const headers = { authorization: `Bearer ${key}`, accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' };
  // Its own connection pool, closed at the end: no kept-alive socket outlives the test.
  const agent = new Agent();
  const get = () => undiciFetch(`${first.base}/mcp`, { headers, dispatcher: agent });
  const stream = await get();
  expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
  const reader = stream.body!.getReader();
  const ended = (async () => {
    for (;;) if ((await reader.read()).done) return 'ended';
  })();
  const second = await get();
  expect([second.status, ((await second.json()) as { error: { message: string } }).error.message]).toEqual([409, 'Conflict: Only one SSE stream is allowed per session']);
  await request(first.http).delete('/mcp').set(bearer(key)).set('mcp-session-id', sessionId).expect(200);
  // Its stream ends rather than outliving the session.
  await expect(Promise.race([ended, new Promise((resolve) => setTimeout(() => resolve('still open'), 2_000))])).resolves.toBe('ended');
  await agent.close();
});

it('a session id that is not one this server makes names no session, whatever it holds', async () => {
  for (const sessionId of ['a\u0000b', 'x'.repeat(300), "' OR 1=1 --", '00000000-0000-0000-0000-000000000000']) {
    const answer = await rpc(second, { method: 'tools/call', params: { session_id: sessionId, name: 'view_inbox', arguments: {} } }).expect(200);
    expect(answer.body.error).toEqual({ code: -32602, message: `Unknown session_id: ${sessionId}` });
  }
});

