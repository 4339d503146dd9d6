import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { startTestApp } from './support/test-app';

/** The checks of `openenv validate --url` (openenv-core 0.2.3), one test each, in the validator's order. */
describe('OpenEnv validator criteria', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx.app.close());

  it('1. GET /openapi.json answers with info.version', async () => {
    const res = await request(ctx.http).get('/openapi.json').expect(200);
    expect(typeof res.body.info.version).toBe('string');
  });

  it('2. GET /health answers {"status": "healthy"}', async () => {
    expect((await request(ctx.http).get('/health').expect(200)).body.status).toBe('healthy');
  });

  it('3. GET /metadata has string name and description (and the optional fields typed right)', async () => {
    const body = (await request(ctx.http).get('/metadata').expect(200)).body;
    expect(body).toMatchObject({ name: 'supportdesk', description: expect.any(String), version: expect.any(String) });
    expect(body.readme_content).toContain('# SupportDesk');
    expect(typeof body.documentation_url).toBe('string');
  });

  it('4. GET /schema has action, observation and state, each a JSON Schema object', async () => {
    const body = (await request(ctx.http).get('/schema').expect(200)).body;
    const ajv = new Ajv2020({ strict: false, discriminator: true });
    for (const name of ['action', 'observation', 'state']) {
      expect(typeof body[name]).toBe('object');
      expect(() => ajv.compile(body[name])).not.toThrow();
    }
    const started = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body;
    expect(ajv.validate(body.observation, started.observation)).toBe(true);
    for (const action of SOLUTIONS.billing_duplicate_charge.actions.slice(0, 3)) {
      const stepped = (await request(ctx.http).post('/step').send({ episode_id: started.episode_id, action }).expect(200)).body;
      expect([ajv.validate(body.observation, stepped.observation), ajv.errors]).toEqual([true, null]);
    }
    const state = (await request(ctx.http).get(`/state/${started.episode_id}`).expect(200)).body;
    expect([ajv.validate(body.state, state), ajv.errors]).toEqual([true, null]);
    expect(ajv.validate(body.action, SOLUTIONS.billing_duplicate_charge.actions[0])).toBe(true);
  });

  it('5. POST /mcp with {} answers HTTP 200 with a JSON-RPC 2.0 envelope', async () => {
    const body = (await request(ctx.http).post('/mcp').send({}).expect(200)).body;
    expect(body.jsonrpc).toBe('2.0');
  });

  it('6. mode consistency: /reset, /step and /state are all in the OpenAPI paths', async () => {
    const paths = Object.keys((await request(ctx.http).get('/openapi.json').expect(200)).body.paths);
    expect(paths).toEqual(expect.arrayContaining(['/reset', '/step', '/state']));
  });

  it('hackathon check: POST /reset with {} answers 200, with observation, reward and done', async () => {
    const body = (await request(ctx.http).post('/reset').set('content-type', 'application/json').send('{}').expect(200)).body;
    expect(body).toMatchObject({ observation: expect.any(Object), reward: 0, done: false, info: { variant: 'generated' } });
  });

  it("GET /state without an id returns the caller's most recent episode", async () => {
    const latest = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'logistics_missing_order_vip' }).expect(200)).body;
    const state = (await request(ctx.http).get('/state').expect(200)).body;
    expect(state).toMatchObject({ episode_id: latest.episode_id, task_id: 'logistics_missing_order_vip' });
  });
});

it('GET /state without an id is a clear 404 for a tenant with no episode', async () => {
  const ctx = await startTestApp();
  try {
    const res = await request(ctx.http).get('/state').expect(404);
    expect(res.body.message).toMatch(/no episode yet; start one with POST \/reset/);
  } finally {
    await ctx.app.close();
  }
});

it('POST /reset accepts an OpenEnv-style episode_id for the new episode, and refuses a taken one with 409', async () => {
  const ctx = await startTestApp();
  try {
    const res = await request(ctx.http).post('/reset').send({ variant: 'canonical', episode_id: 'run-7.ep-1', seed: 3 }).expect(200);
    expect(res.body.episode_id).toBe('run-7.ep-1');
    await request(ctx.http).get('/state/run-7.ep-1').expect(200);
    const taken = await request(ctx.http).post('/reset').send({ variant: 'canonical', episode_id: 'run-7.ep-1' }).expect(409);
    expect(taken.body.statusCode).toBe(409);
    await request(ctx.http).post('/reset').send({ variant: 'canonical', episode_id: 'bad id!' }).expect(422);
  } finally {
    await ctx.app.close();
  }
});

it('openenv.yaml is a valid manifest naming this server', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('js-yaml') as typeof import('js-yaml');
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const manifest = yaml.load(readFileSync(`${__dirname}/../openenv.yaml`, 'utf8')) as Record<string, unknown>;
  expect(manifest).toMatchObject({ spec_version: 1, name: 'supportdesk', type: 'space', runtime: 'docker', port: 7860 });
  expect(typeof manifest.description).toBe('string');
});

it('the README carries the Hugging Face Space front matter', () => {
  const { readFileSync } = require('node:fs') as typeof import('node:fs');
  const readme = readFileSync(`${__dirname}/../README.md`, 'utf8');
  const front = readme.match(/^---\n([\s\S]*?)\n---\n/);
  expect(front).not.toBeNull();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const yaml = require('js-yaml') as typeof import('js-yaml');
  expect(yaml.load(front![1])).toMatchObject({ sdk: 'docker', app_port: 7860, tags: expect.arrayContaining(['openenv']) });
});
