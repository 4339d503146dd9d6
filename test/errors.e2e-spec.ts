import request from 'supertest';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EpisodesService } from '../src/episodes/episodes.service';
import { Database } from '../src/database/database.service';
import { startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';

let app: NestFastifyApplication;
let http: any;

beforeAll(async () => {
  ({ app, http } = await startTestApp());
});
afterAll(() => app.close());
afterEach(() => jest.restoreAllMocks());

async function episodeCount(): Promise<number> {
  return app.get(Database).serialized((db) => db.episode.count());
}

it.each([
  ['form-encoded', 'application/x-www-form-urlencoded', 'task_id=security_compromised_account'],
  ['plain text', 'text/plain', '{"task_id": "security_compromised_account"}'],
])('a %s body is refused with 415, not ignored, and starts nothing', async (_name, type, body) => {
  const before = await episodeCount();
  const res = await request(http).post('/reset').set('content-type', type).send(body).expect(415);
  expect(res.body).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
  expect(res.body.message).toMatch(/application\/json/);
  expect(await episodeCount()).toBe(before);
});

it.each(['null', '5', '"text"', '{"task_id": '])('a JSON body %s that is not an object is a 400', async (body) => {
  const res = await request(http).post('/reset').set('content-type', 'application/json').send(body).expect(400);
  expect(res.body).toEqual({
    statusCode: 400,
    error: 'Bad Request',
    code: 'MALFORMED_INPUT',
    message: 'the request body is not a valid JSON object',
    request_id: res.headers['x-request-id'],
  });
});

it('a refused body is still logged: the request id is echoed on the 400', async () => {
  const res = await request(http)
    .post('/step')
    .set('content-type', 'application/json')
    .set('x-request-id', 'trace-400')
    .send('{"bad": ')
    .expect(400);
  expect(res.headers['x-request-id']).toBe('trace-400');
});

it('POST /reset with no body at all starts the easy task', async () => {
  const res = await request(http).post('/reset').expect(200);
  expect(res.body.info.task_id).toBe('billing_duplicate_charge');
});

it('an unexpected failure is a generic 500 with the error body and no internals', async () => {
  jest.spyOn(app.get(EpisodesService), 'grade').mockRejectedValue(new Error('secret detail at /srv/app/x.ts:12'));
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const res = await request(http).post('/grader').send({ episode_id: 'x' }).expect(500);
  expect(res.body).toEqual({
    statusCode: 500,
    error: 'Internal Server Error',
    code: 'INTERNAL',
    message: 'internal error; it has been logged',
    request_id: res.headers['x-request-id'],
  });
});

it('a busy database is a 503 with Retry-After', async () => {
  jest.spyOn(app.get(EpisodesService), 'grade').mockRejectedValue(new Error('SqliteError: database is locked'));
  const res = await request(http).post('/grader').send({ episode_id: 'x' }).expect(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.body.statusCode).toBe(503);
});

it('GET /health answers 503 "unhealthy" when the database cannot be reached', async () => {
  jest.spyOn(app.get(Database), 'ping').mockRejectedValue(new Error('unable to open database file'));
  const res = await request(http).get('/health').expect(503);
  expect(res.body).toMatchObject({ status: 'unhealthy', database: 'error: unable to open database file' });
});

it('once shutdown has begun, a step or reset is refused with 503 and Retry-After, and nothing is written', async () => {
  const ctx = await startTestApp();
  try {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', seed: 1 }).expect(200)).body.episode_id;
    // What app.close() does once the HTTP server is closed: queued writes are committed, then new ones refused.
    await ctx.app.get(Database).onApplicationShutdown();
    const step = await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'search_policy', query: 'refund' } }).expect(503);
    expect(step.headers['retry-after']).toBe('1');
    expect(step.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      code: 'UNAVAILABLE',
      message: 'the server is shutting down; retry shortly',
      request_id: step.headers['x-request-id'],
    });
    await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(503);
    await request(ctx.http).get(`/state/${id}`).expect(503); // a Prisma read, which would otherwise reconnect
    await withDirect(ctx.databaseUrl, async (db) => {
      expect(await db.get('SELECT COUNT(*) AS n FROM episodes')).toEqual({ n: 1 });
      expect(await db.get('SELECT COUNT(*) AS n FROM action_log')).toEqual({ n: 0 });
    }, { readonly: true });
  } finally {
    await ctx.app.close();
  }
});
