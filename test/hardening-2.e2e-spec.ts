import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { load as parseYaml } from 'js-yaml';
import request from 'supertest';
import WebSocket from 'ws';
import { ManualClock } from '../src/common/clock';
import { TenantRepository } from '../src/tenants/tenant.repository';
import { LogSink } from './support/log-sink';
import { ADMIN_KEY, asAdmin, bearer, issueKey, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { openWsClient } from './support/ws-client';

/* Each finding of the second red team, reproduced: it failed before the fix and passes now. */

async function listening(overrides: Record<string, string> = {}, options: { clock?: ManualClock; sink?: LogSink } = {}) {
  const ctx = await startTestApp(
    undefined,
    { ADMIN_API_KEY: ADMIN_KEY, ...(options.sink ? { LOG_LEVEL: 'debug' } : {}), ...overrides },
    { clock: options.clock, logDestination: options.sink?.stream },
  );
  await ctx.app.listen(0, '127.0.0.1');
  const port = (ctx.app.getHttpServer().address() as AddressInfo).port;
  return { ...ctx, port, ws: `ws://127.0.0.1:${port}/ws` };
}

type Listening = Awaited<ReturnType<typeof listening>>;

/** A WebSocket from the `ws` package, open. */
async function rawWs(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return ws;
}

/** The status a /ws upgrade was answered with (101 when it opened). */
async function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.close();
      resolve(101);
    });
    ws.once('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      ws.terminate();
    });
    ws.once('error', () => undefined);
  });
}

/** Text frames as a client sends them (masked, here with a zero mask), concatenated so they leave in one write. */
function textFrames(payload: string, count: number): Buffer {
  const body = Buffer.from(payload);
  if (body.length > 125) throw new Error('short frames only');
  const frame = Buffer.concat([Buffer.from([0x81, 0x80 | body.length, 0, 0, 0, 0]), body]);
  return Buffer.concat(Array.from({ length: count }, () => frame));
}


/**
 * `count` POSTs that reach the server together, as from many clients at once: sent by a child process that opens
 * every connection first, then writes every request in one go. (Written from the test's own process, the server
 * would read them one loop turn apart, and a race between them could not show.)
 */
async function simultaneousPosts(port: number, path: string, headers: Record<string, string>, body: (i: number) => unknown, count: number) {
  const requests = Array.from({ length: count }, (_, i) => {
    const json = JSON.stringify(body(i));
    const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    return `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n${extra}Content-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`;
  });
  const script = `
    const net = require('node:net');
    const requests = JSON.parse(process.argv[1]);
    Promise.all(requests.map(() => new Promise((resolve) => { const s = net.connect(${port}, '127.0.0.1', () => resolve(s)); })))
      .then((sockets) => Promise.all(sockets.map((s, i) => new Promise((resolve) => { let t = ''; s.on('data', (c) => (t += c)); s.on('close', () => resolve(t)); s.write(requests[i]); }))))
      .then((answers) => process.stdout.write(JSON.stringify(answers)));`;
  const out = await new Promise<string>((resolve, reject) => execFile(process.execPath, ['-e', script, JSON.stringify(requests)], { maxBuffer: 64 * 1024 * 1024 }, (e, stdout) => (e ? reject(e) : resolve(stdout))));
  return (JSON.parse(out) as string[]).map((text) => {
    const [head, payload] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
    const lines = head.split('\r\n');
    const fields = Object.fromEntries(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    return { status: Number(lines[0].split(' ')[1]), headers: fields as Record<string, string>, body: payload ? JSON.parse(payload) : null };
  });
}

describe('A. /ws flow control and the session caps', () => {
  it('a client that does not read its answers: the server stops answering past WS_MAX_BUFFERED_BYTES and stops reading; nothing is lost once it reads', async () => {
    const sink = new LogSink();
    const ctx = await listening({ WS_MAX_BUFFERED_BYTES: String(64 * 1024), WS_MAX_PENDING_MESSAGES: '8' }, { sink });
    try {
      const client = await openWsClient(ctx.ws);
      await client.ask({ type: 'reset', data: { variant: 'canonical' } });
      const one = JSON.stringify(await client.ask({ type: 'step', data: { type: 'list_tools' } })).length;
      // Far more answers than the kernel's socket buffers hold (a few MB), asked for by a client that reads none
      // (list_tools: a few KB of answer for a few bytes of message, and no database work).
      const count = Math.ceil((24 * 1024 * 1024) / one);
      client.ws.pause();
      for (let i = 0; i < count; i++) client.ws.send('{"type":"step","data":{"type":"list_tools"}}');
      const held = await sink.waitFor((line) => /\/ws answers held/.test(line.msg ?? ''), 30_000);
      await sink.waitFor((line) => /\/ws reading paused/.test(line.msg ?? ''), 30_000);
      const unread = Number(/held: (\d+) bytes/.exec(held.msg)![1]);
      expect(unread).toBeGreaterThan(64 * 1024);
      expect(unread).toBeLessThanOrEqual(64 * 1024 + one + 1024);
      // The rest of the server is not held up by it.
      await request(ctx.http).get('/health').expect(200);
      // Once the client reads, every answer comes, in order.
      client.ws.resume();
      let answered = 0;
      while (answered < count) {
        expect((await client.next()).type).toBe('observation');
        answered += 1;
      }
      client.close();
    } finally {
      await ctx.app.close();
    }
  });

  it('300,000 one-byte messages are read only as fast as they are answered: WS_MAX_MESSAGES_PER_SECOND a second, reading paused meanwhile', async () => {
    const clock = new ManualClock('2026-12-01T12:00:00Z');
    const sink = new LogSink();
    const ctx = await listening({ WS_MAX_MESSAGES_PER_SECOND: '100' }, { clock, sink });
    try {
      const ws = await rawWs(ctx.ws);
      let answers = 0;
      const waiting: { count: number; resolve: () => void }[] = [];
      ws.on('message', () => {
        answers += 1;
        for (const w of waiting.filter((w) => answers >= w.count)) w.resolve();
      });
      const answered = (count: number) => new Promise<void>((resolve) => (answers >= count ? resolve() : waiting.push({ count, resolve })));
      (ws as unknown as { _socket: Socket })._socket.write(textFrames('x', 300_000));
      await answered(100);
      const paused = await sink.waitFor((line) => /\/ws reading paused/.test(line.msg ?? ''));
      expect(Number(/paused: (\d+) messages/.exec(paused.msg)![1])).toBeLessThanOrEqual(64 + 16_384);
      // The rest of the server is not held up, and no more is answered until the server's clock moves on.
      await request(ctx.http).get('/health').expect(200);
      await request(ctx.http).get('/health').expect(200);
      expect(answers).toBe(100);
      clock.advance(1_000);
      await answered(200);
      await request(ctx.http).get('/health').expect(200);
      expect(answers).toBe(200);
      ws.terminate();
    } finally {
      await ctx.app.close();
    }
  });

  it('a connection’s queue is served one message per turn of the event loop: /health is not held until it runs dry', async () => {
    const ctx = await listening();
    try {
      // From another process, as a real client: 1,000 messages answered without any I/O (handled back to back, they
      // would hold the event loop until the last one), then GET /health; how many answers had come when it did.
      const script = `
        const WebSocket = require(${JSON.stringify(require.resolve('ws'))});
        const http = require('node:http');
        const ws = new WebSocket('ws://127.0.0.1:${ctx.port}/ws');
        let answers = 0;
        ws.on('message', () => answers++);
        ws.on('open', () => {
          const frame = Buffer.concat([Buffer.from([0x81, 0x80 | 44, 0, 0, 0, 0]), Buffer.from('{"type":"step","data":{"type":"list_tools"}}')]);
          ws._socket.write(Buffer.concat(Array(1000).fill(frame)));
          http.get('http://127.0.0.1:${ctx.port}/health', (res) => {
            res.resume();
            res.on('end', () => { process.stdout.write(JSON.stringify({ status: res.statusCode, answers })); ws.terminate(); });
          });
        });`;
      const out = await new Promise<string>((resolve, reject) => execFile(process.execPath, ['-e', script], (e, stdout) => (e ? reject(e) : resolve(stdout))));
      const { status, answers } = JSON.parse(out) as { status: number; answers: number };
      expect(status).toBe(200);
      expect(answers).toBeLessThan(500);
    } finally {
      await ctx.app.close();
    }
  });

  it("every /ws message counts against the tenant's rate limit, invalid JSON included", async () => {
    const clock = new ManualClock('2026-12-01T12:00:00Z');
    const ctx = await listening({ RATE_LIMIT_PER_MINUTE: '5' }, { clock });
    try {
      const { key } = await tenantWithKey(ctx.http, 'ws-invalid');
      const client = await openWsClient(ctx.ws, bearer(key)); // the upgrade: 1 of 5
      const answers = [];
      for (let i = 0; i < 10; i++) answers.push(await client.ask('{"type": '));
      expect(answers.slice(0, 4).map((a) => a.data.code)).toEqual(Array(4).fill('INVALID_JSON'));
      for (const refused of answers.slice(4)) {
        expect(refused).toMatchObject({ type: 'error', data: { code: 'EXECUTION_ERROR', status: 429, retry_after_s: expect.any(Number) } });
      }
      client.close();
    } finally {
      await ctx.app.close();
    }
  });

  it('MAX_SESSIONS_PER_TENANT holds for 120 concurrent openenv/session/create calls, and for concurrent MCP initializes', async () => {
    const ctx = await listening({ MAX_SESSIONS_PER_TENANT: '32' });
    try {
      const { key } = await tenantWithKey(ctx.http, 'concurrent');
      const created = await simultaneousPosts(ctx.port, '/mcp', bearer(key), (id) => ({ jsonrpc: '2.0', id, method: 'openenv/session/create', params: { variant: 'canonical' } }), 120);
      const opened = created.filter((a) => a.body.result?.session_id);
      const refused = created.filter((a) => a.body.error?.code === -32000);
      expect([opened.length, refused.length]).toEqual([32, 88]);
      expect(refused[0].body.error.data).toEqual({ active_sessions: 32, max_sessions: 32 });

      const { key: other } = await tenantWithKey(ctx.http, 'concurrent-mcp');
      const initialize = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      const sessions = await simultaneousPosts(ctx.port, '/mcp', { ...bearer(other), accept: 'application/json, text/event-stream' }, initialize, 60);
      expect(sessions.filter((s) => s.headers['mcp-session-id']).length).toBe(32);
    } finally {
      await ctx.app.close();
    }
  });
});

describe('B. failed authentications never lock out valid keys; client addresses behind a trusted proxy; connection churn', () => {
  it('a client sending wrong keys from an address does not lock out valid keys or the admin key from it', async () => {
    const clock = new ManualClock('2026-12-01T12:00:00Z');
    const ctx = await listening({ AUTH_FAILURES_PER_MINUTE: '3', REQUIRE_API_KEY: 'true', CHAIN_KEY: 'test-chain-key-0123456789abcdef0123456789' }, { clock });
    try {
      const { key, keyId } = await tenantWithKey(ctx.http, 'innocent');
      await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200);
      const lookups = jest.spyOn(ctx.app.get(TenantRepository), 'findKeyByHash');
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await request(ctx.http).get('/state').set(bearer(`sdk_wrong_${i}`))).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429, 429, 429]);
      expect(lookups).toHaveBeenCalledTimes(3); // past the budget, wrong keys cost no lookup
      // The same address, valid credentials: served.
      await request(ctx.http).get('/state').set(bearer(key)).expect(200);
      await request(ctx.http).get('/admin/tenants').set(asAdmin).expect(200);
      expect(await upgradeStatus(ctx.ws, bearer(key))).toBe(101);
      // A key issued after the lockout, never seen by this process before, is served too.
      const fresh = await issueKey(ctx.http, 'innocent');
      await request(ctx.http).get('/state').set(bearer(fresh.key)).expect(404);
      // Failing credentials from the address still get 429: a wrong key, no key, a revoked key.
      await request(ctx.http).get('/state').set(bearer('sdk_wrong')).expect(429);
      await request(ctx.http).get('/state').expect(429);
      await request(ctx.http).delete(`/admin/tenants/innocent/keys/${keyId}`).set(asAdmin).expect(200);
      const revoked = await request(ctx.http).get('/state').set(bearer(key)).expect(429);
      expect(revoked.body.message).toMatch(/too many failed authentications.*Valid keys are not affected/);
      expect(await upgradeStatus(ctx.ws, bearer('sdk_wrong'))).toBe(429);
    } finally {
      await ctx.app.close();
    }
  });

  it('behind a trusted proxy each client has its own failure budget (HTTP and /ws); X-Forwarded-For from anyone else is ignored', async () => {
    const attacker = { 'X-Forwarded-For': '203.0.113.7' };
    const neighbour = { 'X-Forwarded-For': '203.0.113.8' };
    const proxied = await listening({ AUTH_FAILURES_PER_MINUTE: '2', TRUSTED_PROXIES: '127.0.0.1' }, { clock: new ManualClock('2026-12-01T12:00:00Z') });
    try {
      for (const expected of [401, 401, 429]) await request(proxied.http).get('/state').set(attacker).set(bearer('sdk_wrong')).expect(expected);
      expect(await upgradeStatus(proxied.ws, { ...attacker, ...bearer('sdk_wrong') })).toBe(429);
      await request(proxied.http).get('/state').set(neighbour).set(bearer('sdk_wrong')).expect(401);
      expect(await upgradeStatus(proxied.ws, { ...neighbour, ...bearer('sdk_wrong') })).toBe(401);
    } finally {
      await proxied.app.close();
    }
    const direct = await listening({ AUTH_FAILURES_PER_MINUTE: '2' }, { clock: new ManualClock('2026-12-01T12:00:00Z') });
    try {
      for (const expected of [401, 401, 429]) await request(direct.http).get('/state').set(attacker).set(bearer('sdk_wrong')).expect(expected);
      // Not a trusted proxy: the forwarded address is the client's claim, and the socket's address is what counts.
      await request(direct.http).get('/state').set(neighbour).set(bearer('sdk_wrong')).expect(429);
    } finally {
      await direct.app.close();
    }
  });

  it('at MAX_CONNECTIONS the longest-idle connection makes room: idle sockets reconnecting from 4 addresses cannot keep newcomers out', async () => {
    const ctx = await listening({ MAX_CONNECTIONS: '40' });
    let stopping = false;
    const churn: Socket[] = [];
    // 40 idle sockets from 4 other loopback addresses, each reconnecting as soon as it is closed, no key needed.
    const hold = (from: string) => {
      if (stopping) return;
      const socket = connect({ host: '127.0.0.1', port: ctx.port, localAddress: from });
      socket.on('error', () => undefined);
      socket.once('close', () => setImmediate(() => hold(from)));
      churn.push(socket);
    };
    try {
      for (let i = 0; i < 40; i++) hold(`127.0.0.${2 + (i % 4)}`);
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await request(ctx.http).get('/health').set('Connection', 'close')).status);
      expect(statuses.filter((s) => s === 200).length).toBe(40);
    } finally {
      stopping = true;
      for (const socket of churn) socket.destroy();
      await ctx.app.close();
    }
  });

  it('keep-alive connections are held 72 s, as Fastify holds them, not the 5 s of Node that its server factory would leave', async () => {
    const ctx = await listening();
    const socket = connect({ host: '127.0.0.1', port: ctx.port });
    try {
      const head = await new Promise<string>((resolve, reject) => {
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk;
          if (text.includes('\r\n\r\n')) resolve(text.slice(0, text.indexOf('\r\n\r\n')));
        });
        socket.once('error', reject);
        socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      });
      expect(head.toLowerCase()).toContain('keep-alive: timeout=72');
    } finally {
      socket.destroy();
      await ctx.app.close();
    }
  });

  it('when every connection is busy, a newcomer gets 503 in the service error body', async () => {
    const ctx = await listening({ MAX_CONNECTIONS: '2' });
    const busy: Socket[] = [];
    try {
      // Two requests in flight: their bodies never finish arriving.
      const inFlight = new Promise<void>((resolve) => {
        let seen = 0;
        ctx.http.on('request', (incoming: { url?: string }) => incoming.url === '/reset' && ++seen === 2 && resolve());
      });
      for (let i = 0; i < 2; i++) {
        const socket = connect(ctx.port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(`POST /reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"var`);
        busy.push(socket);
      }
      await inFlight;
      const refused = await request(ctx.http).get('/health').expect(503);
      expect(refused.body).toMatchObject({ statusCode: 503, code: 'UNAVAILABLE', request_id: expect.any(String), message: expect.stringMatching(/MAX_CONNECTIONS/) });
      expect(refused.headers['x-request-id']).toBe(refused.body.request_id);
    } finally {
      for (const socket of busy) socket.destroy();
      await ctx.app.close();
    }
  });
});

describe('C. browser origins', () => {
  it('with ALLOWED_HOSTS=*, a page on another origin can neither open /ws nor call HTTP or /mcp; the server’s own origin can', async () => {
    const ctx = await listening({ ALLOWED_HOSTS: '*' });
    try {
      const host = `localhost:${ctx.port}`;
      const hostile = { Host: host, Origin: 'http://attacker.example' };
      expect(await upgradeStatus(ctx.ws, hostile)).toBe(403);
      const refused = await request(ctx.http).post('/reset').set(hostile).send({ variant: 'canonical' }).expect(403);
      expect(refused.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/ALLOWED_ORIGINS/) });
      await request(ctx.http).post('/mcp').set(hostile).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(403);
      // Another port of the same host is another origin, and `null` (a sandboxed page) is none.
      expect(await upgradeStatus(ctx.ws, { Host: host, Origin: 'http://localhost:3000' })).toBe(403);
      expect(await upgradeStatus(ctx.ws, { Host: host, Origin: 'null' })).toBe(403);
      // The server's own pages (Swagger UI at /docs) are same-origin.
      const own = { Host: host, Origin: `http://${host}` };
      expect(await upgradeStatus(ctx.ws, own)).toBe(101);
      await request(ctx.http).post('/reset').set(own).send({ variant: 'canonical' }).expect(200);
      await request(ctx.http).post('/mcp').set(own).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }).expect(200);
      await request(ctx.http).get('/docs').set({ Host: host }).redirects(1).expect(200);
    } finally {
      await ctx.app.close();
    }
  });

  it('behind a trusted TLS proxy the page’s https origin is the server’s own; an untrusted client cannot claim it', async () => {
    const page = { Host: 'supportdesk.example.org', Origin: 'https://supportdesk.example.org', 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '198.51.100.4' };
    const proxied = await listening({ ALLOWED_HOSTS: 'supportdesk.example.org', TRUSTED_PROXIES: '127.0.0.1/32' });
    try {
      expect(await upgradeStatus(proxied.ws, page)).toBe(101);
      await request(proxied.http).post('/reset').set(page).send({ variant: 'canonical' }).expect(200);
      // A host named by the proxy is checked against ALLOWED_HOSTS too.
      await request(proxied.http).get('/health').set({ ...page, 'X-Forwarded-Host': 'attacker.example', Origin: 'https://attacker.example' }).expect(403);
    } finally {
      await proxied.app.close();
    }
    const direct = await listening({ ALLOWED_HOSTS: '*' });
    try {
      // Without TRUSTED_PROXIES the forwarded scheme and host are ignored: the connection is plain HTTP.
      expect(await upgradeStatus(direct.ws, page)).toBe(403);
      await request(direct.http).post('/reset').set({ ...page, 'X-Forwarded-Host': 'attacker.example', Origin: 'https://attacker.example' }).send({}).expect(403);
      await request(direct.http).post('/reset').set({ ...page, Origin: 'http://supportdesk.example.org' }).send({ variant: 'canonical' }).expect(200);
    } finally {
      await direct.app.close();
    }
    const listed = await listening({ ALLOWED_HOSTS: '*', ALLOWED_ORIGINS: 'https://console.example.org' });
    try {
      expect(await upgradeStatus(listed.ws, { Origin: 'https://console.example.org' })).toBe(101);
    } finally {
      await listed.app.close();
    }
  });
});

describe('D. error bodies, MCP params, logs and the compose file', () => {
  let ctx: Listening;
  const sink = new LogSink();
  const clock = new ManualClock('2026-12-01T12:00:00Z');
  beforeAll(async () => {
    ctx = await listening({ HEADERS_TIMEOUT_MS: '1000' }, { sink, clock });
  });
  afterAll(() => ctx.app.close());

  /** Sends raw bytes on a new connection; resolves with what came back once the server closed it. */
  const rawExchange = (bytes: string, drip?: string) =>
    new Promise<string>((resolve) => {
      const socket = connect(ctx.port, '127.0.0.1', () => socket.write(bytes));
      const timer = drip ? setInterval(() => socket.writable && socket.write(drip), 200) : null;
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        if (timer) clearInterval(timer);
        resolve(text);
      });
    });
  const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

  it('414, 400 (URL), 431 and 408 carry the service error body with code and request_id, and are documented', async () => {
    const long = await request(ctx.http).get(`/state/${'a'.repeat(120)}`).expect(414);
    expect(long.body).toEqual({ statusCode: 414, error: 'URI Too Long', code: 'URI_TOO_LONG', message: expect.any(String), request_id: long.headers['x-request-id'] });
    const malformed = await request(ctx.http).get('/state/%ZZ').set('x-request-id', 'bad-url-1').expect(400);
    expect(malformed.body).toMatchObject({ code: 'MALFORMED_INPUT', request_id: 'bad-url-1' });
    const large = await rawExchange(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(large).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(large)).toMatchObject({ statusCode: 431, code: 'HEADERS_TOO_LARGE', request_id: expect.any(String) });
    const slow = await rawExchange('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n');
    expect(slow).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(slow)).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT', request_id: expect.any(String) });

    const document = (await request(ctx.http).get('/openapi.json').expect(200)).body;
    for (const [path, item] of Object.entries<Record<string, { responses: Record<string, unknown> }>>(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const statuses = Object.keys(operation.responses);
        const where = `${method.toUpperCase()} ${path}`;
        expect([where, ['400', '408', '431', '503'].filter((s) => !statuses.includes(s))]).toEqual([where, []]);
        if (path.includes('{')) expect([where, statuses.includes('414')]).toEqual([where, true]);
      }
    }
  });

  it('in an MCP session, params that break a method’s schema are -32602 in plain words, without zod’s dump', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const init = await request(ctx.http)
      .post('/mcp')
      .set(headers)
      .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
      .expect(200);
    const session = { ...headers, 'mcp-session-id': init.headers['mcp-session-id'] };
    const cases: [string, unknown, RegExp][] = [
      ['tools/list', { cursor: 5 }, /params\.cursor must be a string/],
      ['tools/call', { name: 5 }, /params\.name is required/],
      ['tools/call', { name: 'open_ticket', arguments: [1] }, /params\.arguments must be an object/],
    ];
    for (const [method, params, message] of cases) {
      const answer = await request(ctx.http).post('/mcp').set(session).send({ jsonrpc: '2.0', id: 2, method, params }).expect(200);
      expect([method, answer.body.error.code]).toEqual([method, -32602]);
      expect(answer.body.error.message).toMatch(message);
      expect(answer.body.error.message).not.toMatch(/invalid_type|"code"|\[\s*\{|expected/);
    }
  });

  it('?api%5Fkey= and ?%61pi_key= are redacted from the log; unauthenticated error lines are cut and sampled per address', async () => {
    const secret = 'sdk_PERCENTENCODEDSECRET';
    for (const [name, status] of [['api%5Fkey', 401], ['%61pi_key', 401], ['api_key', 401], ['API%5fKEY', 404]] as const) {
      const res = await request(ctx.http).get(`/state?x=1&${name}=${secret}`).expect(status);
      const line = await sink.waitFor((l) => l.req?.id === res.headers['x-request-id']);
      expect(line.req.url).toBe(`/state?x=1&${name}=[redacted]`);
    }
    expect(JSON.stringify(sink.lines)).not.toContain(secret);

    const huge = await request(ctx.http).get(`/nowhere?q=${'z'.repeat(15_000)}`).expect(404);
    const cut = await sink.waitFor((l) => l.req?.id === huge.headers['x-request-id']);
    expect(JSON.stringify(cut).length).toBeLessThan(1_500);
    expect(cut.req.url).toMatch(/…\[\d+ more characters\]$/);

    // 30 a minute per address (one minute's worth spent above and here), then counted instead of written.
    clock.advance(120_000);
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push((await request(ctx.http).get(`/nowhere/${i}`).expect(404)).headers['x-request-id']);
    await sink.waitFor((l) => l.req?.id === ids[29]);
    await request(ctx.http).get('/health').expect(200); // a later line: the earlier ones have been decided
    await sink.waitFor((l) => l.req?.url === '/health');
    expect(ids.filter((id) => sink.lines.some((l) => l.req?.id === id))).toHaveLength(30);
    clock.advance(60_000);
    const next = await request(ctx.http).get('/nowhere/again').expect(404);
    expect(await sink.waitFor((l) => l.req?.id === next.headers['x-request-id'])).toMatchObject({ suppressed_before: 10 });
  });

  it('the compose tls profile publishes only the proxy, trusts it for client addresses, and rotates every service’s log', () => {
    const compose = parseYaml(readFileSync(join(__dirname, '..', 'docker-compose.yml'), 'utf8')) as {
      services: Record<string, { ports?: string[]; environment?: Record<string, string>; logging?: { options?: Record<string, string> }; networks?: Record<string, { ipv4_address?: string }> }>;
    };
    const server = compose.services.supportdesk;
    const proxy = compose.services.tls;
    // The server's own port is on the host's loopback unless SUPPORTDESK_BIND says otherwise.
    expect(server.ports).toEqual([expect.stringMatching(/^\$\{SUPPORTDESK_BIND:-127\.0\.0\.1\}:/)]);
    const proxyAddress = proxy.networks!.supportdesk.ipv4_address!;
    expect(server.environment!.TRUSTED_PROXIES).toBe(proxyAddress);
    for (const [name, service] of Object.entries(compose.services)) {
      expect([name, service.logging?.options]).toEqual([name, expect.objectContaining({ 'max-size': expect.any(String), 'max-file': expect.any(String) })]);
    }
  });
});
