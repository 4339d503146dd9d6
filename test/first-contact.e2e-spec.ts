import type { AddressInfo } from 'node:net';
import request from 'supertest';
import WebSocket from 'ws';
import { createApp } from '../src/app/create-app';
import { LogSink } from './support/log-sink';
import { ADMIN_KEY, CHAIN_KEY } from './support/tenants';
import { freshDatabaseUrl, startTestApp, testConfig } from './support/test-app';

/* What a newcomer meets first: the front page, the 401 a client without a key gets, and a quiet start-up. */

describe('a server that requires keys', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  let base: string;
  beforeAll(async () => {
    ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
    await ctx.app.listen(0, '127.0.0.1');
    base = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  });
  afterAll(() => ctx.app.close());

  it('GET / sends a browser to the API documentation, which is served without a key', async () => {
    const front = await request(ctx.http).get('/').expect(302);
    expect(front.headers.location).toBe('/docs');
    const docs = await request(ctx.http).get('/docs').redirects(1);
    expect(docs.status).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
  });

  it('a 401 carries a Bearer challenge and the service error body, over HTTP and /mcp', async () => {
    for (const call of [
      request(ctx.http).post('/reset').send({}),
      request(ctx.http).get('/state').set('Authorization', 'Bearer sdk_wrong'),
      request(ctx.http).post('/mcp').set('accept', 'application/json, text/event-stream').send({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    ]) {
      const res = await call.expect(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="supportdesk"');
      expect(res.body).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED', message: expect.any(String) });
    }
  });

  it('a /ws upgrade without a key is refused with the same challenge', async () => {
    const refused = await new Promise<{ status: number; challenge: string | undefined }>((resolve, reject) => {
      const ws = new WebSocket(`ws://${base}/ws`);
      ws.once('unexpected-response', (_req, res) => {
        resolve({ status: res.statusCode ?? 0, challenge: res.headers['www-authenticate'] });
        res.resume();
        ws.terminate();
      });
      ws.once('open', () => reject(new Error('the upgrade was accepted without a key')));
      ws.once('error', () => undefined);
    });
    expect(refused).toEqual({ status: 401, challenge: 'Bearer realm="supportdesk"' });
  });

  it('a 403 (a key of the wrong scope) is not a challenge', async () => {
    const res = await request(ctx.http).post('/reset').set('Authorization', `Bearer ${ADMIN_KEY}`).send({});
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});

it('starting the app logs nothing at info level: the framework detail is at debug, the summary comes from main.ts', async () => {
  const sink = new LogSink();
  const app = await createApp(testConfig({ DATABASE_URL: freshDatabaseUrl(), LOG_LEVEL: 'log', CHAIN_KEY }), { logDestination: sink.stream });
  try {
    expect(sink.lines.filter((l) => l.level <= 30).map((l) => l.msg)).toEqual([]);
  } finally {
    await app.close();
  }
  const verbose = new LogSink();
  const detailed = await createApp(testConfig({ DATABASE_URL: freshDatabaseUrl(), LOG_LEVEL: 'debug', CHAIN_KEY }), { logDestination: verbose.stream });
  try {
    const messages = verbose.lines.map((l) => l.msg);
    expect(messages).toEqual(expect.arrayContaining([expect.stringMatching(/^Mapped \{\/reset, POST\} route/), expect.stringMatching(/^SQLite ready/), expect.stringMatching(/^loaded 3 task\(s\)/)]));
  } finally {
    await detailed.close();
  }
});
