import request from 'supertest';
import { createApp } from '../src/app/create-app';
import { LogSink } from './support/log-sink';
import { testConfig, freshDatabaseUrl } from './support/test-app';

/** The real app, logging into memory. */
async function appWithLog() {
  const sink = new LogSink();
  const app = await createApp(testConfig({ DATABASE_URL: freshDatabaseUrl(), LOG_LEVEL: 'log' }), { logDestination: sink.stream });
  return { app, http: app.getHttpServer(), sink, lines: () => sink.lines.filter((l) => l.req) };
}

/** Once the log line of the request with this id has been written. */
const logged = (id: string) => ctx.sink.waitFor((l) => l.req?.id === id);

let ctx: Awaited<ReturnType<typeof appWithLog>>;
beforeAll(async () => {
  ctx = await appWithLog();
});
afterAll(() => ctx.app.close());

it('logs one line per request with request id, tenant, route, status and latency, and no credentials', async () => {
  const secret = 'sdk_SECRETSECRETSECRET';
  const started = await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
  const res = await request(ctx.http)
    .get(`/state/${started.body.episode_id}`)
    .set('X-API-Key', '')
    .set('x-request-id', 'run-7.step-3')
    .expect(401);
  const health = await request(ctx.http).get('/health').set('Authorization', `Bearer ${secret}`).expect(200);
  await logged(started.headers['x-request-id']);
  await logged(res.headers['x-request-id']);
  await logged(health.headers['x-request-id']);
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
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  await expect(logged(res.headers['x-request-id'])).resolves.toMatchObject({ res: { status: 200 } });
});

it('logs requests whose response a route writes itself (MCP), and the error body carries the request id', async () => {
  const res = await request(ctx.http).post('/mcp').set('x-request-id', 'mcp-1').send({}).expect(200);
  expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  const bad = await request(ctx.http).post('/step').set('x-request-id', 'bad-1').send({ episode_id: 'x', action: { type: 'nope' } }).expect(422);
  expect(bad.body.request_id).toBe('bad-1');
  await expect(logged('mcp-1')).resolves.toMatchObject({ res: { status: 200 }, route: '/mcp' });
});
