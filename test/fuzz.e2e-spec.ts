import fc from 'fast-check';
import request from 'supertest';
import { SOLUTIONS } from './fixtures/solutions';
import { databaseDigest } from './support/database-digest';
import { ADMIN_KEY } from './support/tenants';
import { startTestApp } from './support/test-app';

/*
 * Property: whatever a buggy agent or a hostile client sends, the server answers with a 4xx and the service's
 * error body (or a harmless 2xx for a read), never a 5xx or a crash, and the database stays byte-for-byte the
 * same. Every generated write is invalid by construction, so any change to the database is a bug.
 * FUZZ_RUNS (default 500, within npm test's time budget; CI runs it again at 5000) and FUZZ_SEED (default fixed,
 * for reproducible CI runs) tune it.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 500);
const SEED = process.env.FUZZ_SEED === 'random' ? Date.now() : Number(process.env.FUZZ_SEED ?? 20261129);
const TASK_IDS = Object.keys(SOLUTIONS);

interface FuzzRequest {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer | object;
}

const hostileStrings = fc.constantFrom(
  "' OR 1=1 --",
  '"; DROP TABLE episodes; --',
  '../../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%00',
  '\u0000',
  '<script>alert(1)</script>',
  '${jndi:ldap://x/a}',
  '{{7*7}}',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '\uD800',
  '🙂'.repeat(50),
  ' ',
  '',
);
const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: hostileStrings },
  { weight: 1, arbitrary: fc.integer({ min: 2_001, max: 20_000 }).map((n) => 'x'.repeat(n)) },
);
// Finite only: JSON has no NaN or Infinity (JSON.stringify writes null, which means "not given" and is valid).
const anyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(-1, -0.5, 1e308, -1e308, 2 ** 53 + 1, 2_147_483_648, 0.001),
);
const anyValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyString,
    anyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 10 }), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** Something that is not a string, or a string that names no task. (null means "not given", as for any optional field.) */
const notATaskId = fc.oneof(anyNumber, fc.boolean(), fc.array(anyString, { maxLength: 2 }), anyString).filter(
  (v) => !TASK_IDS.includes(v as string),
);
const notAnEpisodeId = fc.oneof(anyString, anyNumber, fc.constant(null), fc.array(anyString, { maxLength: 2 }));

const actionType = fc.constantFrom('open_ticket', 'search_policy', 'set_priority', 'route_ticket', 'send_reply', 'resolve_ticket');

/** An action that fails validation: unknown type, missing or extra fields, wrong types, oversize, deep nesting. */
const invalidAction = fc.oneof(
  fc.record({ type: anyString.filter((t) => !['open_ticket', 'search_policy', 'set_priority', 'route_ticket', 'send_reply', 'resolve_ticket'].includes(t)) }),
  actionType.map((type) => ({ type })), // every action has a required field besides its type
  fc.record({ type: fc.constant('open_ticket'), ticket_id: fc.oneof(anyNumber, fc.constant(null), fc.constant('x'.repeat(65))) }),
  fc.record({ type: fc.constant('search_policy'), query: fc.oneof(anyNumber, fc.constant('   '), fc.constant('q'.repeat(1001))) }),
  fc.record({ type: fc.constant('set_priority'), priority: anyString.filter((p) => !['low', 'normal', 'high', 'urgent'].includes(p)) }),
  fc.record({ type: fc.constant('route_ticket'), team: fc.oneof(anyNumber, fc.constant('finance'), fc.constant(null)) }),
  fc.record({ type: fc.constant('send_reply'), message: fc.oneof(anyNumber, fc.constant(''), fc.constant('m'.repeat(2001))) }),
  fc.record({ type: fc.constant('resolve_ticket'), resolution: fc.constant('refund_issued'), amount: fc.oneof(fc.constant(-1), fc.constant(1.005), fc.constant(1e7), anyString) }),
  fc.record({ type: fc.constant('resolve_ticket'), resolution: fc.constant('security_escalation'), amount: fc.integer({ min: 0, max: 10 }) }),
  fc.tuple(actionType, fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !['type', 'ticket_id', 'query', 'priority', 'team', 'message', 'resolution', 'amount'].includes(k)), anyValue).map(
    ([type, key, value]) => ({ type, ticket_id: 'T-1041', query: 'q', priority: 'low', team: 'billing', message: 'm', resolution: 'no_action_needed', [key]: value }),
  ),
  anyString,
  anyNumber,
  fc.array(anyValue, { maxLength: 3 }),
  fc.integer({ min: 17, max: 200 }).map((depth) => ({ type: 'open_ticket', ticket_id: nest(depth) })),
);

function nest(depth: number): unknown {
  let value: unknown = 'T-1041';
  for (let i = 0; i < depth; i++) value = { x: value };
  return value;
}

const json = (method: FuzzRequest['method'], path: string, body: unknown): FuzzRequest => ({
  method,
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

function requests(episodeIds: string[]): fc.Arbitrary<FuzzRequest> {
  const existing = fc.constantFrom(...episodeIds);
  // Lone surrogates cannot be percent-encoded (a URL carries UTF-8); those become raw invalid escapes instead.
  const pathId = fc.oneof(anyString.filter((s) => s.length > 0 && s.length < 2000), existing).map((s) =>
    s.isWellFormed() ? encodeURIComponent(s) : '%ED%A0%80',
  );
  return fc.oneof(
    // POST /reset: always at least one bad field
    fc.oneof(
      fc.record({ task_id: notATaskId }),
      fc.record({ seed: fc.oneof(anyString, fc.constant(-1), fc.constant(1.5), fc.constant(2 ** 31), fc.boolean()) }),
      fc.record({ task_id: fc.constantFrom(...TASK_IDS), tags: fc.oneof(anyString, fc.array(fc.constant('bad tag!'), { minLength: 1 }), fc.array(fc.constant('t'), { minLength: 21, maxLength: 30 })) }),
      fc.record({ agent: fc.oneof(anyNumber, fc.constant('a'.repeat(129))) }),
      fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }).filter((k) => !['task_id', 'seed', 'agent', 'run_label', 'tags', 'episode_id'].includes(k)), anyValue, { minKeys: 1, maxKeys: 3 }),
    ).map((body) => json('post', '/reset', body)),
    // POST /step: an invalid action, or a valid-looking one aimed at no episode, or a bad episode id
    fc.oneof(
      fc.record({ episode_id: existing, action: invalidAction }),
      fc.record({ episode_id: notAnEpisodeId, action: fc.constant({ type: 'open_ticket', ticket_id: 'T-1041' }) }),
      fc.record({ episode_id: existing, action: fc.constant({ type: 'open_ticket', ticket_id: 'T-1041' }), request_id: fc.oneof(anyNumber, fc.constant('bad id!'), fc.constant('r'.repeat(129))) }),
      fc.record({ episode_id: existing }),
      fc.record({ action: fc.constant({ type: 'open_ticket', ticket_id: 'T-1041' }) }),
    ).map((body) => json('post', '/step', body)),
    fc.record({ episode_id: notAnEpisodeId }).map((body) => json('post', '/grader', body)),
    fc.oneof(
      fc.record({ task_ids: fc.array(anyString.filter((s) => !TASK_IDS.includes(s)), { minLength: 1, maxLength: 3 }) }),
      fc.record({ task_ids: fc.oneof(anyString, anyNumber, fc.array(fc.constantFrom(...TASK_IDS), { minLength: 21, maxLength: 25 })) }),
    ).map((body) => json('post', '/baseline', body)),
    // reads with hostile ids and queries
    fc.tuple(fc.constantFrom('/state/', '/episodes/', '/episodes/%s/actions', '/episodes/%s/verify'), pathId).map(([route, id]) => ({
      method: 'get' as const,
      path: route.includes('%s') ? route.replace('%s', id) : `${route}${id}`,
      headers: {},
    })),
    fc.tuple(fc.constantFrom('/episodes', '/stats', '/episodes/export'), fc.dictionary(fc.constantFrom('task_id', 'status', 'agent', 'tag', 'limit', 'cursor', 'min_score', 'created_after', 'threshold', 'group_by', 'tenant', 'format', 'x'), anyString, { maxKeys: 4 })).map(
      ([path, query]) => ({
        method: 'get' as const,
        path: `${path}?${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, v.isWellFormed() ? v : '%ED%A0%80'])).toString()}`,
        headers: {},
      }),
    ),
    // admin routes with no key or a forged one
    fc.tuple(fc.constantFrom('/admin/tenants', '/admin/tenants/public/keys'), fc.oneof(fc.constant(undefined), anyString.filter((s) => /^[\x21-\x7e]+$/.test(s)))).map(([path, key]) => ({
      method: 'post' as const,
      path,
      headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify({ slug: 'evil', name: 'evil' }),
    })),
    // raw bodies: broken JSON, invalid UTF-8, wrong content types, oversize, deep nesting
    fc.tuple(fc.constantFrom('/reset', '/step', '/grader', '/baseline'), fc.oneof(
      fc.string({ maxLength: 60 }).map((s) => ({ type: 'application/json', body: `{${s}` })),
      fc.uint8Array({ minLength: 1, maxLength: 60 }).map((bytes) => ({ type: 'application/json', body: Buffer.concat([Buffer.from('{"task_id":"'), Buffer.from([0xff, 0xfe, ...bytes]), Buffer.from('"}')]) })),
      fc.constantFrom('text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x').map((type) => ({ type, body: 'task_id=x&seed=1' })),
      fc.integer({ min: 300_000, max: 600_000 }).map((n) => ({ type: 'application/json', body: `{"episode_id":"${'x'.repeat(n)}"}` })),
      fc.integer({ min: 20, max: 50_000 }).map((n) => ({ type: 'application/json', body: `${'['.repeat(n)}${']'.repeat(n)}` })),
      fc.constantFrom('null', '1', '"s"', 'true', '[]').map((body) => ({ type: 'application/json', body })),
    )).map(([path, { type, body }]) => ({ method: 'post' as const, path, headers: { 'content-type': type }, body })),
    // unknown routes, traversal, wrong methods
    fc.tuple(fc.constantFrom('put', 'patch', 'delete', 'get') as fc.Arbitrary<FuzzRequest['method']>, fc.constantFrom('/reset', '/step', '/../../etc/passwd', '/%2e%2e/%2e%2e/etc/passwd', '/state', '/tasks/../admin', '/admin')).map(
      ([method, path]) => ({ method, path, headers: {} }),
    ),
  );
}

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let episodeIds: string[];
const statuses = new Map<number, number>();

beforeAll(async () => {
  // The limits this test is not about are off, so every generated request reaches the checks it is about,
  // whatever the wall clock does (rate limits and the failed-authentication budget are tested in hardening).
  ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: '0', AUTH_FAILURES_PER_MINUTE: '0' });
  const active = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 3 }).expect(200)).body.episode_id;
  await request(ctx.http).post('/step').send({ episode_id: active, action: SOLUTIONS.billing_duplicate_charge.actions[0] }).expect(200);
  const finished = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'security_compromised_account', seed: 4 }).expect(200)).body.episode_id;
  for (const action of SOLUTIONS.security_compromised_account.actions) {
    await request(ctx.http).post('/step').send({ episode_id: finished, action }).expect(200);
  }
  episodeIds = [active, finished];
});
afterAll(async () => {
  await ctx.app.close();
  const total = [...statuses.values()].reduce((a, b) => a + b, 0);
  const distribution = [...statuses.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ');
  process.stdout.write(`\nfuzz: ${total} requests (seed ${SEED}); status distribution: ${distribution}\n`);
});

it(`${RUNS} malformed and hostile requests: no 5xx, every rejection has the error body, the database is unchanged`, async () => {
  const before = await databaseDigest(ctx.databaseUrl);
  await fc.assert(
    fc.asyncProperty(requests(episodeIds), async (req) => {
      let call = request(ctx.http)[req.method](req.path);
      for (const [name, value] of Object.entries(req.headers)) call = call.set(name, value);
      const res = req.body === undefined ? await call : await call.send(req.body as string);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status >= 500) throw new Error(`${res.status} for ${req.method.toUpperCase()} ${req.path}: ${res.text.slice(0, 300)}`);
      if (res.status >= 400) {
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.body.statusCode).toBe(res.status);
        expect(typeof res.body.error).toBe('string');
        expect(typeof res.body.message).toBe('string');
        expect(res.body.message.length).toBeGreaterThan(0);
        expect(res.text).not.toMatch(/\n\s+at .*:\d+:\d+/); // no stack trace
      }
      // Checked after every request (the database is small), so a change is pinned on the request that made it.
      const after = await databaseDigest(ctx.databaseUrl);
      if (after !== before) throw new Error(`${req.method.toUpperCase()} ${req.path} (${res.status}) changed the database`);
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  );
  expect(await databaseDigest(ctx.databaseUrl)).toBe(before);
  // With the limits off, every request met the checks it was generated for; none was turned away for its timing.
  expect(statuses.get(429) ?? 0).toBe(0);
  await request(ctx.http).get('/health').expect(200);
}, 600_000);
