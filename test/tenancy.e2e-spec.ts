import { createHash } from 'node:crypto';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';

const billing = SOLUTIONS.billing_duplicate_charge;

describe('API keys', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY });
  });
  afterAll(() => ctx.app.close());

  it('lifecycle: create, use (Bearer and X-API-Key), stored only as a hash, revoke, then 401', async () => {
    const { key, keyId, readerKey, tenantId } = await tenantWithKey(ctx.http, 'lab-one');
    expect(key).toMatch(/^sdk_[A-Za-z0-9_-]{43}$/); // 256 random bits

    const viaBearer = await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200);
    await request(ctx.http).get(`/state/${viaBearer.body.episode_id}`).set('X-API-Key', key).expect(200);

    const { row, episode } = await withDirect(ctx.databaseUrl, async (db) => ({
      row: (await db.get<any>('SELECT * FROM api_keys WHERE id = ?', [keyId]))!,
      episode: (await db.get<any>('SELECT tenant_id FROM episodes WHERE id = ?', [viaBearer.body.episode_id]))!,
    }), { readonly: true });
    expect(row.hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(row.prefix).toBe(key.slice(0, 12));
    expect(JSON.stringify(row)).not.toContain(key);
    expect(row.last_used_at).not.toBeNull();
    expect(episode.tenant_id).toBe(tenantId);

    const listed = (await request(ctx.http).get('/admin/tenants/lab-one/keys').set(asAdmin).expect(200)).body.keys;
    expect(listed).toEqual([
      expect.objectContaining({ id: keyId, scope: 'agent', prefix: key.slice(0, 12), revoked_at: null }),
      expect.objectContaining({ scope: 'reader', prefix: readerKey.slice(0, 12), revoked_at: null }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(key);

    const revoked = (await request(ctx.http).delete(`/admin/tenants/lab-one/keys/${keyId}`).set(asAdmin).expect(200)).body;
    expect(revoked.revoked_at).not.toBeNull();
    const after = await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(401);
    expect(after.body).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
  });

  it.each([
    ['an unknown key', { Authorization: 'Bearer sdk_not-a-real-key' }],
    ['a malformed Authorization header', { Authorization: 'Basic abc' }],
    ['an empty X-API-Key', { 'X-API-Key': ' ' }],
  ])('%s is 401, never the public tenant', async (_name, headers) => {
    const res = await request(ctx.http).post('/reset').set(headers).send({ variant: 'canonical' }).expect(401);
    expect(res.body.statusCode).toBe(401);
  });

  it('admin routes: 401 without a key, 403 with a tenant key, 200 with the admin key', async () => {
    const { key } = await tenantWithKey(ctx.http, 'lab-two');
    await request(ctx.http).get('/admin/tenants').expect(401);
    await request(ctx.http).get('/admin/tenants').set(bearer(key)).expect(403);
    const tenants = (await request(ctx.http).get('/admin/tenants').set(asAdmin).expect(200)).body.tenants;
    expect(tenants.map((t: any) => t.slug)).toEqual(expect.arrayContaining(['public', 'lab-two']));
  });

  it('the admin key cannot run episodes (403) but can audit across tenants', async () => {
    await request(ctx.http).post('/reset').set(asAdmin).send({ variant: 'canonical' }).expect(403);
    const { key } = await tenantWithKey(ctx.http, 'lab-three');
    const id = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
    await request(ctx.http).get(`/episodes/${id}`).set(asAdmin).expect(200);
    const own = (await request(ctx.http).get('/episodes').set(asAdmin).query({ tenant: 'lab-three' }).expect(200)).body;
    expect(own.items.map((e: any) => e.episode_id)).toEqual([id]);
    const { readerKey } = await tenantWithKey(ctx.http, 'lab-four');
    // Only the admin key chooses a tenant: from another key a well-formed `tenant` is not allowed, not malformed.
    await request(ctx.http).get('/episodes').set(bearer(readerKey)).query({ tenant: 'lab-one' }).expect(403);
    await request(ctx.http).get('/episodes').set(asAdmin).query({ tenant: 'no-such-lab' }).expect(404);
  });

  it('refuses a duplicate tenant slug with 409 and bad input with 422', async () => {
    await request(ctx.http).post('/admin/tenants').set(asAdmin).send({ slug: 'dup', name: 'Dup' }).expect(200);
    await request(ctx.http).post('/admin/tenants').set(asAdmin).send({ slug: 'dup', name: 'Dup' }).expect(409);
    await request(ctx.http).post('/admin/tenants').set(asAdmin).send({ slug: 'Bad Slug!', name: 'x' }).expect(422);
    await request(ctx.http).post('/admin/tenants/nope/keys').set(asAdmin).send({ name: 'x' }).expect(404);
  });

  it('anonymous requests act as the public tenant when keys are optional', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
    const page = (await request(ctx.http).get('/episodes').expect(200)).body;
    expect(page.items.map((e: any) => e.episode_id)).toContain(id);
    expect(page.items.every((e: any) => e.tenant_id === 'public')).toBe(true);
  });
});

describe('REQUIRE_API_KEY=true', () => {
  it('requests without a key get 401 on tenant routes; public routes stay open', async () => {
    const { app, http } = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY, REQUIRE_API_KEY: 'true' });
    try {
      const res = await request(http).post('/reset').send({ variant: 'canonical' }).expect(401);
      expect(res.body.message).toMatch(/API key is required/);
      await request(http).get('/episodes').expect(401);
      await request(http).get('/health').expect(200);
      await request(http).get('/tasks').expect(200);
      const { key } = await tenantWithKey(http, 'keyed');
      await request(http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200);
    } finally {
      await app.close();
    }
  });
});

describe('tenant isolation', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  let a: string;
  let b: string;
  let bReader: string;
  let episodeOfA: string;

  beforeAll(async () => {
    ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY });
    a = (await tenantWithKey(ctx.http, 'tenant-a')).key;
    ({ key: b, readerKey: bReader } = await tenantWithKey(ctx.http, 'tenant-b'));
    episodeOfA = (await request(ctx.http).post('/reset').set(bearer(a)).send({ variant: 'canonical', task_id: 'billing_duplicate_charge' }).expect(200)).body
      .episode_id;
    await request(ctx.http).post('/step').set(bearer(a)).send({ episode_id: episodeOfA, action: billing.actions[0] }).expect(200);
  });
  afterAll(() => ctx.app.close());

  /** Each route taking an episode, with which of tenant B's keys may call it (audits need its reader key). */
  const routes: [string, 'agent' | 'reader', (http: any, key: string, id: string) => request.Test][] = [
    ['POST /step', 'agent', (http, key, id) => request(http).post('/step').set(bearer(key)).send({ episode_id: id, action: billing.actions[1] })],
    ['GET /state/{id}', 'agent', (http, key, id) => request(http).get(`/state/${id}`).set(bearer(key))],
    ['POST /grader', 'agent', (http, key, id) => request(http).post('/grader').set(bearer(key)).send({ episode_id: id })],
    ['GET /state/{id} (reader)', 'reader', (http, key, id) => request(http).get(`/state/${id}`).set(bearer(key))],
    ['GET /episodes/{id}', 'reader', (http, key, id) => request(http).get(`/episodes/${id}`).set(bearer(key))],
    ['GET /episodes/{id}/actions', 'reader', (http, key, id) => request(http).get(`/episodes/${id}/actions`).set(bearer(key))],
    ['GET /episodes/{id}/steps/{n}', 'reader', (http, key, id) => request(http).get(`/episodes/${id}/steps/1`).set(bearer(key))],
    ['GET /episodes/{id}/verify', 'reader', (http, key, id) => request(http).get(`/episodes/${id}/verify`).set(bearer(key))],
    ['GET /episodes/{id}/rescore', 'reader', (http, key, id) => request(http).get(`/episodes/${id}/rescore`).set(bearer(key))],
  ];

  it.each(routes)("%s with tenant B's %s key on tenant A's episode is 404, like a missing one, and changes nothing", async (_name, scope, call) => {
    const keyOfB = scope === 'agent' ? b : bReader;
    const before = (await request(ctx.http).get(`/state/${episodeOfA}`).set(bearer(a)).expect(200)).body;
    const foreign = await call(ctx.http, keyOfB, episodeOfA).expect(404);
    const missing = await call(ctx.http, keyOfB, '00000000-0000-4000-8000-000000000000').expect(404);
    expect(foreign.body.message.replace(episodeOfA, 'ID')).toBe(missing.body.message.replace('00000000-0000-4000-8000-000000000000', 'ID'));
    const after = (await request(ctx.http).get(`/state/${episodeOfA}`).set(bearer(a)).expect(200)).body;
    expect(after).toEqual(before);
  });

  it("tenant B's listing, export and stats never include tenant A's episodes", async () => {
    await request(ctx.http).post('/reset').set(bearer(b)).send({ variant: 'canonical' }).expect(200);
    const list = (await request(ctx.http).get('/episodes').set(bearer(bReader)).expect(200)).body;
    expect(list.items).toHaveLength(1);
    expect(list.items[0].episode_id).not.toBe(episodeOfA);
    const exported = (await request(ctx.http).get('/episodes/export').set(bearer(bReader)).expect(200)).text;
    expect(exported).not.toContain(episodeOfA);
    expect(exported.trim().split('\n')).toHaveLength(1);
    const stats = (await request(ctx.http).get('/stats').set(bearer(bReader)).expect(200)).body;
    expect(stats.tasks.reduce((n: number, t: any) => n + t.count, 0)).toBe(1);
  });
});
