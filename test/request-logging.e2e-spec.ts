import { Writable } from 'node:stream';
import request from 'supertest';
import { createApp } from '../src/app/create-app';
import { testConfig, freshDatabaseUrl } from './support/test-app';

/** The real app, logging into memory. */
async function appWithLog() {
  const lines: any[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      chunk.toString().trim().split('\n').forEach((line: string) => lines.push(JSON.parse(line)));
      done();
    },
  });
  const app = await createApp(testConfig({ DATABASE_URL: freshDatabaseUrl(), LOG_LEVEL: 'log' }), { logDestination: sink });
  return { app, http: app.getHttpServer(), lines: () => lines.filter((l) => l.req) };
}

let ctx: Awaited<ReturnType<typeof appWithLog>>;
beforeAll(async () => {
  ctx = await appWithLog();
});
afterAll(() => ctx.app.close());

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

it('logs one line per request with request id, tenant, route, status and latency, and no credentials', async () => {
  const secret = 'sdk_SECRETSECRETSECRET';
  const started = await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
  const res = await request(ctx.http)
    .get(`/state/${started.body.episode_id}`)
    .set('X-API-Key', '')
    .set('x-request-id', 'run-7.step-3')
    .expect(401);
  await request(ctx.http).get('/health').set('Authorization', `Bearer ${secret}`).expect(200);
  await settled();
  expect(res.headers['x-request-id']).toBe('run-7.step-3');
  const line = ctx.lines().find((l) => l.req.id === 'run-7.step-3');
  expect(line).toMatchObject({
    req: { id: 'run-7.step-3', method: 'GET', url: `/state/${started.body.episode_id}` },
    res: { status: 401 },
    route: '/state/:episode_id',
    responseTime: expect.any(Number),
  });
  const reset = ctx.lines().find((l) => l.req.url === '/reset');
  expect(reset).toMatchObject({ res: { status: 200 }, tenant: 'public', route: '/reset' });
  expect(ctx.lines().filter((l) => l.req.id === 'run-7.step-3')).toHaveLength(1);
  expect(JSON.stringify(ctx.lines())).not.toContain('SECRET');
});

it('replaces a request id that does not look like one, and echoes the new one', async () => {
  const res = await request(ctx.http).get('/health').set('x-request-id', 'bad id; with "junk" '.repeat(20)).expect(200);
  await settled();
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  expect(ctx.lines().some((l) => l.req.id === res.headers['x-request-id'])).toBe(true);
});

it('logs requests whose response a route writes itself (MCP), and the error body carries the request id', async () => {
  const res = await request(ctx.http).post('/mcp').set('x-request-id', 'mcp-1').send({}).expect(200);
  expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  const bad = await request(ctx.http).post('/step').set('x-request-id', 'bad-1').send({ episode_id: 'x', action: { type: 'nope' } }).expect(422);
  expect(bad.body.request_id).toBe('bad-1');
  await settled();
  expect(ctx.lines().find((l) => l.req.id === 'mcp-1')).toMatchObject({ res: { status: 200 }, route: '/mcp' });
});
