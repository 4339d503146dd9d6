import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { canonicalJson } from '../src/common/canonical-json';
import { chainKeyOf, chainLink } from '../src/episodes/hash-chain';
import { defaultChainKeyOf, startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';
import { openWsClient } from './support/ws-client';
import { STORED_STATE_JSON } from '../src/episodes/active-state';

/*
 * Requests that once took the whole server down, or stored something that later raised a false tamper alarm.
 * Every attack runs over HTTP, /ws and /mcp; after each, the built-ins every tenant shares must be untouched.
 */

/** Own property names of the built-ins that prototype pollution writes to, and of their function members. */
function builtinsFingerprint(): string {
  const owners: [string, object][] = [
    ['Object', Object],
    ['Object.prototype', Object.prototype],
    ['Function.prototype', Function.prototype],
    ['Array.prototype', Array.prototype],
  ];
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    const value = Object.getOwnPropertyDescriptor(Object.prototype, name)?.value;
    if (typeof value === 'function') owners.push([`Object.prototype.${name}`, value]);
  }
  return JSON.stringify(owners.map(([name, owner]) => [name, Object.getOwnPropertyNames(owner).sort()]));
}

const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'prototype', 'isPrototypeOf'];
const pristine = builtinsFingerprint();

/** The actions that used to write through a prototype-named ticket onto shared built-ins. */
const attack = (ticketId: string) => [
  { type: 'open_ticket', ticket_id: ticketId },
  { type: 'set_priority', priority: 'urgent' },
  { type: 'route_ticket', team: 'vip_concierge' },
  { type: 'send_reply', message: 'hello' },
];

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let base: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { MAX_CONNECTIONS_PER_CLIENT: '40', MAX_CONNECTIONS: '60' });
  await ctx.app.listen(0, '127.0.0.1');
  base = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => ctx.app.close());

async function expectServerUnharmed(): Promise<void> {
  expect(builtinsFingerprint()).toBe(pristine);
  expect(({} as Record<string, unknown>).priority).toBeUndefined();
  expect((Object as unknown as Record<string, unknown>).priority).toBeUndefined();
  await request(ctx.http).get('/health').expect(200);
  // A database round trip through Prisma: polluted built-ins used to crash its client here.
  await request(ctx.http).get('/episodes?limit=1').expect(200);
}

async function verify(episodeId: string) {
  return (await request(ctx.http).get(`/episodes/${episodeId}/verify`).expect(200)).body;
}

describe.each(PROTOTYPE_NAMES)('a ticket id named %j behaves like any unknown ticket', (ticketId) => {
  afterEach(expectServerUnharmed);

  it('over HTTP', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 3 }).expect(200)).body.episode_id;
    const [open, ...rest] = attack(ticketId);
    const opened = (await request(ctx.http).post('/step').send({ episode_id: id, action: open }).expect(200)).body;
    expect(opened.observation.last_action_error).toBe(`no ticket "${ticketId}" in the inbox`);
    expect(opened.observation.active_ticket).toBeNull();
    for (const action of rest) {
      const body = (await request(ctx.http).post('/step').send({ episode_id: id, action }).expect(200)).body;
      expect(body.observation.last_action_error).toMatch(/^open a ticket before you/);
      expect(body.reward).toBe(0);
    }
    expect(await verify(id)).toMatchObject({ chain_ok: true, replay_ok: true });
  });

  it('over /ws', async () => {
    const ws = await openWsClient(`ws://${base}/ws`);
    const started = await ws.ask({ type: 'reset', data: { variant: 'canonical', task_id: 'security_compromised_account', seed: 3 } });
    for (const action of attack(ticketId)) {
      const answer = await ws.ask({ type: 'step', data: action });
      expect(answer.type).toBe('observation');
      expect(answer.data.observation.last_action_error).not.toBeNull();
    }
    ws.close();
    expect(await verify(started.data.episode_id)).toMatchObject({ chain_ok: true, replay_ok: true });
  });

  it('over /mcp', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'logistics_missing_order_vip', seed: 3 }).expect(200)).body.episode_id;
    const session = await mcpSession(id);
    for (const { type, ...args } of attack(ticketId)) {
      const result = await session.call(type, args);
      expect(result.isError).toBeFalsy();
      expect(JSON.parse(result.content[0].text).observation.last_action_error).not.toBeNull();
    }
    expect(await verify(id)).toMatchObject({ chain_ok: true, replay_ok: true });
  });
});

it('prototype keys inside bodies, messages and tool arguments are refused at the door and change no shared object', async () => {
  const hostile = ['{"__proto__": {"polluted": 1}}', '{"constructor": {"prototype": {"polluted": 1}}}', '{"a": [{"b": {"__proto__": {"polluted": 1}}}]}'];
  const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
  const ws = await openWsClient(`ws://${base}/ws`);
  await ws.ask({ type: 'reset', data: { variant: 'canonical' } });
  const session = await mcpSession(id);
  for (const body of hostile) {
    const http = await request(ctx.http).post('/reset').set('content-type', 'application/json').send(body).expect(400);
    expect(http.body.message).toMatch(/contains the key "(__proto__|constructor\.prototype)"/);
    const action = `{"episode_id": "${id}", "action": {"type": "open_ticket", "ticket_id": "T-1041", "x": ${body}}}`;
    await request(ctx.http).post('/step').set('content-type', 'application/json').send(action).expect(400);
    expect(await ws.ask(`{"type": "reset", "data": ${body}}`)).toMatchObject({ type: 'error', data: { code: 'INVALID_JSON' } });
    expect(await ws.ask(`{"type": "step", "data": {"type": "open_ticket", "ticket_id": "T-1041", "x": ${body}}}`)).toMatchObject({
      type: 'error',
      data: { code: 'INVALID_JSON' },
    });
    const mcp = await session.raw(`{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "open_ticket", "arguments": ${body}}}`);
    expect(mcp.status).toBe(400);
    expect(mcp.body.error).toMatchObject({ code: -32600 });
  }
  ws.close();
  // A plain "constructor" field is only an unknown field.
  await request(ctx.http).post('/reset').send({ variant: 'canonical', constructor: 'x' }).expect(422);
  for (const query of ['__proto__', 'constructor prototype', 'toString valueOf hasOwnProperty']) {
    await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'search_policy', query } }).expect(200);
  }
  expect((await request(ctx.http).get(`/state/${id}`).expect(200)).body.step_count).toBe(3);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  await expectServerUnharmed();
});

it('a reply made of the names every object inherits is graded like any other words (one saying "constructor" once held the grader for good)', async () => {
  const started = (await request(ctx.http).post('/reset').send({ task_id: 'billing_duplicate_charge', seed: 7 }).expect(200)).body;
  const [id, ticket] = [started.episode_id, started.observation.inbox[0].ticket_id];
  const opened = await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'open_ticket', ticket_id: ticket } }).expect(200);
  expect(opened.body.observation.last_action_error).toBeNull();
  for (const message of ['constructor', 'We refunded constructor dollars on constructor 27, within constructor business days.', '__proto__ toString valueOf']) {
    // Before the fix this request never came back (the test timed out); no clock is needed to tell.
    const replied = await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'send_reply', message } }).expect(200);
    expect(replied.body.observation.last_action_error).toBeNull();
  }
  await expectServerUnharmed();
});

describe('an episode stored with a prototype-named ticket by an earlier release', () => {
  afterEach(expectServerUnharmed);

  it('verifies without harm (the replay reports the difference) and cannot be used to pollute by stepping it', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 5 }).expect(200)).body.episode_id;
    await storePoisonedSteps(ctx.databaseUrl, id);
    const report = await verify(id);
    // The rows were written past the server (as a release before the ledger wrote them): the ledger never saw step 1.
    expect(report).toMatchObject({ chain_ok: true, replay_ok: false, ledger_ok: false, first_bad_index: 1 });
    // The server's cached copy is stale after the direct write; the version check makes it re-read the row.
    const stepped = (await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'set_priority', priority: 'low' } }).expect(200)).body;
    expect(stepped.observation.last_action_error).toMatch(/^open a ticket before you/);
    expect((await request(ctx.http).get(`/state/${id}`).expect(200)).body.step_count).toBe(4);
  });
});

/**
 * Writes what the release before this fix stored for `open_ticket "__proto__"` then two changes to it: the
 * steps "applied" (their writes went to Object.prototype, so the snapshot itself looks ordinary) and chained, with
 * the chain key the server keeps beside its database in open mode.
 */
async function storePoisonedSteps(databaseUrl: string, episodeId: string): Promise<void> {
  const key = chainKeyOf(defaultChainKeyOf(databaseUrl));
  await withDirect(databaseUrl, async (db) => {
    const row = (await db.get<{ state_json: string; chain_head: string; chain_key_id: string }>(
      `SELECT ${STORED_STATE_JSON} AS state_json, chain_head, chain_key_id FROM episodes WHERE id = ?`,
      [episodeId],
    ))!;
    expect(row.chain_key_id).toBe(key.id);
    const state = JSON.parse(row.state_json);
    const steps = [
      { action: { type: 'open_ticket', ticket_id: '__proto__' }, outcome: 'opened ticket __proto__' },
      { action: { type: 'set_priority', priority: 'urgent' }, outcome: 'priority set to urgent' },
      { action: { type: 'route_ticket', team: 'billing' }, outcome: 'routed to billing' },
    ];
    let head = row.chain_head;
    const insert = `INSERT INTO action_log (episode_serial, tenant_serial, step_index, action_json, reward_milli, score_after_milli, outcome, error, created_at, hash)
       VALUES ((SELECT serial FROM episodes WHERE id = ?), (SELECT serial FROM tenants WHERE id = 'public'), ?, ?, 0, 0, ?, NULL, ?, ?)`;
    for (const [i, { action, outcome }] of steps.entries()) {
      const createdAt = new Date(Date.UTC(2026, 10, 29, 12, 0, i));
      state.step_count = i + 1;
      state.history.push({ step: i + 1, action, outcome, error: null, reward_milli: 0, score_after_milli: 0 });
      head = chainLink(key, head, { episodeId, stepIndex: i + 1, action: action as never, rewardMilli: 0, scoreAfterMilli: 0, outcome, error: null, createdAt });
      // As the server stores them: Unix milliseconds and the hash's bytes (src/episodes/log-columns.ts).
      await db.run(insert, [episodeId, i + 1, canonicalJson(action), outcome, createdAt.getTime(), Buffer.from(head, 'hex')]);
    }
    state.active_ticket_id = '__proto__';
    state.opened_ticket_ids = ['__proto__'];
    await db.run('UPDATE active_states SET state_json = ? WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)', [JSON.stringify(state), episodeId]);
    await db.run('UPDATE episodes SET chain_head = ?, step_count = 3, version = version + 1 WHERE id = ?', [head, episodeId]);
  });
}

describe('Upgrade requests to paths other than /ws', () => {
  it('are answered and their sockets closed, so thousands of them hold no descriptors', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        rawExchange(
          `GET /${i % 2 ? 'health' : 'nowhere'} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
            'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
        ),
      ),
    );
    for (const answer of answers) {
      expect(answer.closedByServer).toBe(true);
      expect(answer.text).toMatch(/^HTTP\/1\.1 (400|404) /);
      expect(answer.text).toContain('"statusCode"');
    }
    await waitFor(async () => (await openConnections()) === 0);
    await request(ctx.http).get('/health').expect(200);
  });

  it('an Upgrade to /ws with a protocol other than WebSocket is refused the same way', async () => {
    const answer = await rawExchange('GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n');
    expect(answer.closedByServer).toBe(true);
    expect(answer.text).toMatch(/^HTTP\/1\.1 400 /);
  });
});

describe('connection caps', () => {
  it('a client address past MAX_CONNECTIONS_PER_CLIENT gets 503 and its socket closed; a freed place is usable again', async () => {
    const held = await Promise.all(Array.from({ length: 40 }, () => idleConnection()));
    const refused = await rawExchange('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(refused.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.text).toContain('MAX_CONNECTIONS_PER_CLIENT');
    expect(refused.closedByServer).toBe(true);
    held.pop()!.destroy();
    await waitFor(async () => (await openConnections()) === 39);
    const admitted = await rawExchange('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    expect(admitted.text).toMatch(/^HTTP\/1\.1 200 /);
    held.forEach((socket) => socket.destroy());
    await waitFor(async () => (await openConnections()) === 0);
  });
});

describe('one set of input checks on every transport', () => {
  const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
  const loneSurrogate = '"hello \\ud800 there"';

  it('HTTP refuses deep nesting and lone surrogates with 400', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
    const huge = await request(ctx.http).post('/step').set('content-type', 'application/json').send(deep(100_000)).expect(413);
    expect(huge.body).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    for (const body of [deep(10_000), `{"episode_id": "${id}", "action": {"type": "send_reply", "message": ${loneSurrogate}}}`]) {
      const answer = await request(ctx.http).post('/step').set('content-type', 'application/json').send(body).expect(400);
      expect(answer.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    }
  });

  it('/ws refuses them with a clear error and stores nothing', async () => {
    const ws = await openWsClient(`ws://${base}/ws`);
    const started = await ws.ask({ type: 'reset', data: { variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 9 } });
    await ws.ask({ type: 'step', data: { type: 'open_ticket', ticket_id: 'T-1041' } });
    const surrogate = await ws.ask(`{"type": "step", "data": {"type": "send_reply", "message": ${loneSurrogate}}}`);
    expect(surrogate).toEqual({ type: 'error', data: { code: 'INVALID_JSON', message: expect.stringMatching(/lone UTF-16 surrogate/) } });
    for (const levels of [100, 10_000]) {
      const nested = await ws.ask(`{"type": "step", "data": ${deep(levels)}}`);
      expect(nested).toEqual({ type: 'error', data: { code: 'INVALID_JSON', message: expect.stringMatching(/nested more than 16 levels/) } });
    }
    // 100,000 levels take 600 kB: refused for their size, and the session goes on.
    const huge = await ws.ask(`{"type": "step", "data": ${deep(100_000)}}`);
    expect(huge).toEqual({ type: 'error', data: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/more than BODY_LIMIT_BYTES/) } });
    expect((await ws.ask({ type: 'state' })).type).toBe('state');
    ws.close();
    const state = (await request(ctx.http).get(`/state/${started.data.episode_id}`).expect(200)).body;
    expect(state.step_count).toBe(1);
    expect(await verify(started.data.episode_id)).toMatchObject({ chain_ok: true, replay_ok: true });
  });

  it('/mcp refuses them with a JSON-RPC error and stores nothing', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 9 }).expect(200)).body.episode_id;
    const session = await mcpSession(id);
    await session.call('open_ticket', { ticket_id: 'T-1041' });
    const surrogate = await session.raw(
      `{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "send_reply", "arguments": {"message": ${loneSurrogate}}}}`,
    );
    expect(surrogate.status).toBe(400);
    expect(surrogate.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/lone UTF-16 surrogate/) } });
    for (const levels of [100, 10_000]) {
      const nested = await session.raw(`{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": "send_reply", "arguments": ${deep(levels)}}}`);
      expect(nested.status).toBe(400);
      expect(nested.body.error).toMatchObject({ code: -32600, message: expect.stringMatching(/nested more than 16 levels/) });
    }
    const huge = await session.raw(`{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "send_reply", "arguments": ${deep(100_000)}}}`);
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32700, message: expect.stringMatching(/too large/) } });
    expect((await request(ctx.http).get(`/state/${id}`).expect(200)).body.step_count).toBe(1);
    expect(await verify(id)).toMatchObject({ chain_ok: true, replay_ok: true });
  });
});

// ---- helpers ----

/** A bare JSON-RPC MCP session bound to an episode (what any MCP client sends, without an SDK). */
async function mcpSession(episodeId: string) {
  const headers = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const init = await request(ctx.http)
    .post('/mcp')
    .set(headers)
    .set('x-episode-id', episodeId)
    .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
    .expect(200);
  const sessionId = init.headers['mcp-session-id'];
  await request(ctx.http).post('/mcp').set(headers).set('mcp-session-id', sessionId).send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  let next = 2;
  const raw = (body: string) => request(ctx.http).post('/mcp').set(headers).set('mcp-session-id', sessionId).send(body);
  return {
    raw,
    async call(name: string, args: Record<string, unknown>): Promise<any> {
      const answer = await raw(JSON.stringify({ jsonrpc: '2.0', id: next++, method: 'tools/call', params: { name, arguments: args } })).expect(200);
      return answer.body.result;
    },
  };
}

/** Sends raw bytes on a new connection; resolves with what came back once the server closed it (or 3 s passed). */
function rawExchange(bytes: string): Promise<{ text: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const [host, port] = base.split(':');
    const socket = connect(Number(port), host);
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closedByServer: false });
    }, 3000);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedByServer: true });
    });
  });
}

function idleConnection(): Promise<Socket> {
  const [host, port] = base.split(':');
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), host, () => resolve(socket));
    socket.on('error', reject);
  });
}

function openConnections(): Promise<number> {
  return new Promise((resolve, reject) => ctx.app.getHttpServer().getConnections((error: Error | null, count: number) => (error ? reject(error) : resolve(count))));
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
