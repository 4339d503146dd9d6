import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import { createApp } from '../src/app/create-app';
import { ManualClock } from '../src/common/clock';
import { migrateDatabase } from '../src/database/migrate';
import { CHAIN_GENESIS, chainLink } from '../src/episodes/hash-chain';
import { TenantRepository } from '../src/tenants/tenant.repository';
import { SOLUTIONS } from './fixtures/solutions';
import { LogSink } from './support/log-sink';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, issueKey, tenantWithKey } from './support/tenants';
import { freshDatabaseUrl, startTestApp, testConfig } from './support/test-app';
import { testsRunOnPostgres, withDirect } from './support/direct-database';
import { openWsClient } from './support/ws-client';

/* Each finding of the hardening review, reproduced: it failed before the fix and passes now. */

const billing = SOLUTIONS.billing_duplicate_charge.actions;

async function listening(overrides: Record<string, string> = {}, clock?: ManualClock) {
  const ctx = await startTestApp(undefined, { ADMIN_API_KEY: ADMIN_KEY, ...overrides }, { clock });
  await ctx.app.listen(0, '127.0.0.1');
  const port = (ctx.app.getHttpServer().address() as AddressInfo).port;
  return { ...ctx, port, ws: `ws://127.0.0.1:${port}/ws` };
}

describe('one rate limiter and one key check for every transport', () => {
  it('/ws messages count against the tenant rate that HTTP requests spend, and are refused past it', async () => {
    const ctx = await listening({ RATE_LIMIT_PER_MINUTE: '6' });
    try {
      const { key } = await tenantWithKey(ctx.http, 'wsrate');
      const client = await openWsClient(ctx.ws, bearer(key)); // the upgrade: 1
      expect((await client.ask({ type: 'reset', data: { variant: 'canonical' } })).type).toBe('observation'); // 2
      for (let i = 0; i < 3; i++) expect((await client.ask({ type: 'state' })).type).toBe('state'); // 3-5
      await request(ctx.http).get('/state').set(bearer(key)).expect(200); // 6, over HTTP
      const refused = await client.ask({ type: 'step', data: billing[0] });
      expect(refused).toMatchObject({ type: 'error', data: { code: 'EXECUTION_ERROR', status: 429, retry_after_s: expect.any(Number) } });
      expect(refused.data.message).toMatch(/rate limit of 6 requests a minute/);
      await request(ctx.http).get('/state').set(bearer(key)).expect(429);
      client.close();
    } finally {
      await ctx.app.close();
    }
  });

  it('revoking a key ends its open /ws and /mcp sessions at once; a revocation by another process within seconds', async () => {
    const clock = new ManualClock('2026-11-30T12:00:00Z');
    const ctx = await listening({}, clock);
    try {
      const { key, keyId } = await tenantWithKey(ctx.http, 'revoke');
      const other = await issueKey(ctx.http, 'revoke', 'agent');
      const client = await openWsClient(ctx.ws, bearer(key));
      await client.ask({ type: 'reset', data: { variant: 'canonical' } });
      const mcp = await request(ctx.http)
        .post('/mcp')
        .set(bearer(key))
        .set('accept', 'application/json, text/event-stream')
        .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
        .expect(200);
      const closed = new Promise((resolve) => client.ws.once('close', (code) => resolve(code)));
      const notice = client.next();
      await request(ctx.http).delete(`/admin/tenants/revoke/keys/${keyId}`).set(asAdmin).expect(200);
      expect(await notice).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR', message: expect.stringMatching(/revoked/) } });
      expect(await closed).toBe(1008);
      await request(ctx.http).post('/mcp').set(bearer(key)).set('mcp-session-id', mcp.headers['mcp-session-id']).send({ jsonrpc: '2.0', id: 2, method: 'tools/list' }).expect(401);

      // Another process revokes the second key behind this server's back: its session ends on a later message.
      const second = await openWsClient(ctx.ws, bearer(other.key));
      expect((await second.ask({ type: 'reset', data: { variant: 'canonical' } })).type).toBe('observation');
      await withDirect(ctx.databaseUrl, (db) => db.run('UPDATE api_keys SET revoked_at = ? WHERE id = ?', [new Date(1795996800000), other.keyId]));
      // Within the two seconds a validity answer is reused, the session still serves; after them it ends.
      clock.advance(1_900);
      expect(await second.ask({ type: 'state' })).toMatchObject({ type: 'state' });
      clock.advance(200);
      expect(await second.ask({ type: 'state' })).toMatchObject({ type: 'error', data: { code: 'SESSION_ERROR' } });
    } finally {
      await ctx.app.close();
    }
  });

  it("a health probe is never counted against an address's rate: a load balancer checking every second keeps its replicas in", async () => {
    const ctx = await listening({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const health = [];
      for (let i = 0; i < 10; i++) health.push((await request(ctx.http).get('/health')).status);
      expect(health).toEqual(Array(10).fill(200));
      // Other public routes from the same address still count.
      const tasks = [];
      for (let i = 0; i < 5; i++) tasks.push((await request(ctx.http).get('/tasks')).status);
      expect(tasks).toEqual([200, 200, 200, 429, 429]);
    } finally {
      await ctx.app.close();
    }
  });

  it('failed authentications are limited per client address, without a database lookup once the budget is spent', async () => {
    const ctx = await listening({ AUTH_FAILURES_PER_MINUTE: '5' });
    try {
      const lookups = jest.spyOn(ctx.app.get(TenantRepository), 'findKeyByHash');
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await request(ctx.http).post('/reset').set(bearer(`sdk_wrong_${i}`)).send({ variant: 'canonical' })).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
      expect(lookups).toHaveBeenCalledTimes(5);
      const refused = await request(ctx.http).get('/state').set(bearer('sdk_wrong')).expect(429);
      expect(refused.body.message).toMatch(/too many failed authentications from this address/);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      await expect(openWsClient(ctx.ws, bearer('sdk_wrong'))).rejects.toThrow(/429/);
    } finally {
      await ctx.app.close();
    }
  });
});

describe('secrets never reach the log', () => {
  it('a key in ?api_key= on an HTTP route is refused (401) and redacted from the logged URL and message', async () => {
    const sink = new LogSink();
    const app = await createApp(testConfig({ DATABASE_URL: freshDatabaseUrl(), LOG_LEVEL: 'log', ADMIN_API_KEY: ADMIN_KEY }), { logDestination: sink.stream });
    try {
      const { key } = await tenantWithKey(app.getHttpServer(), 'logged');
      const res = await request(app.getHttpServer()).get(`/state?api_key=${key}&x=1`).expect(401);
      expect(res.body.message).toMatch(/Authorization or X-API-Key header/);
      const line = await sink.waitFor((l) => l.req?.id === res.headers['x-request-id']);
      expect(line.req.url).toBe('/state?api_key=[redacted]&x=1');
      expect(JSON.stringify(sink.lines)).not.toContain(key);
    } finally {
      await app.close();
    }
  });
});

describe('a keyed hash chain', () => {
  let ctx: Awaited<ReturnType<typeof listening>>;
  let key: string;
  let reader: string;
  beforeAll(async () => {
    ctx = await listening({ CHAIN_KEY });
    ({ key, readerKey: reader } = await tenantWithKey(ctx.http, 'chain'));
  });
  afterAll(() => ctx.app.close());

  const verify = async (id: string) => (await request(ctx.http).get(`/episodes/${id}/verify`).set(bearer(reader)).expect(200)).body;

  /** A 0-score episode: opened a distractor, resolved it. */
  async function failedEpisode(): Promise<string> {
    const id = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 3, agent: 'honest-agent' }).expect(200)).body.episode_id;
    await request(ctx.http).post('/step').set(bearer(key)).send({ episode_id: id, action: { type: 'open_ticket', ticket_id: 'T-1045' } }).expect(200);
    await request(ctx.http).post('/step').set(bearer(key)).send({ episode_id: id, action: { type: 'resolve_ticket', resolution: 'information_provided' } }).expect(200);
    return id;
  }

  /**
   * What someone who can write the database file (but not read CHAIN_KEY) does: drop the triggers, replace the log
   * with a perfect 6-step one whose rewards follow from its actions, chain it with plain SHA-256 (optionally
   * claiming the unkeyed scheme), and make the episode row agree.
   */
  function forgePerfectLog(id: string, claimUnkeyed: boolean, databaseUrl = ctx.databaseUrl): Promise<void> {
    return withDirect(databaseUrl, async (db) => {
      for (const change of ['update', 'delete']) await db.dropTrigger(`action_log_no_${change}`, 'action_log');
      await db.run('DELETE FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)', [id]);
      const rewards = [50, 100, 150, 200, 200, 300];
      let head = claimUnkeyed ? CHAIN_GENESIS : (await db.get<{ chain_head: string }>('SELECT chain_head FROM episodes WHERE id = ?', [id]))!.chain_head;
      let score = 0;
      for (const [i, action] of billing.entries()) {
        score += rewards[i];
        const createdAt = new Date(Date.UTC(2026, 10, 30, 9, 0, i));
        const row = { episodeId: id, stepIndex: i + 1, action, rewardMilli: rewards[i], scoreAfterMilli: score, outcome: 'ok', error: null, createdAt };
        head = chainLink(null, head, row);
        await db.run(
          `INSERT INTO action_log (episode_serial, tenant_serial, step_index, action_json, reward_milli, score_after_milli, outcome, error, created_at, hash)
           SELECT e.serial, t.serial, ?, ?, ?, ?, 'ok', NULL, ?, ? FROM episodes e JOIN tenants t ON t.id = e.tenant_id WHERE e.id = ?`,
          [i + 1, JSON.stringify(action), rewards[i], score, createdAt.getTime(), Buffer.from(head, 'hex'), id],
        );
      }
      await db.run(`UPDATE episodes SET score_milli = 1000, status = 'resolved', chain_head = ?${claimUnkeyed ? ", chain_scheme = 'sha256-v1'" : ''} WHERE id = ?`, [head, id]);
    });
  }

  it('a forged perfect log over a 0-score episode, with the triggers dropped, fails the chain', async () => {
    const id = await failedEpisode();
    expect(await verify(id)).toMatchObject({ chain_ok: true, replay_ok: true, stored_score: 0, chain_scheme: 'hmac-sha256-v2' });
    await forgePerfectLog(id, false);
    expect(await verify(id)).toMatchObject({ chain_ok: false, stored_score: 1, first_bad_index: 1, problem: 'row does not match its hash' });
  });

  it('claiming the unkeyed pre-HMAC scheme for a new episode (a downgrade) fails too', async () => {
    const id = await failedEpisode();
    await forgePerfectLog(id, true);
    const report = await verify(id);
    expect(report).toMatchObject({ chain_ok: false, chain_scheme: 'sha256-v1', first_bad_index: 0 });
    expect(report.problem).toMatch(/never sealed/);
  });

  it('a downgrade no longer gets signed by a restart: every episode re-chained without the key, the seals deleted, the server restarted', async () => {
    // Before, start-up sealed every unsealed sha256-v1 episode whenever no episode was keyed: a condition the file controls.
    const url = freshDatabaseUrl();
    const first = await startTestApp(url, { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
    const id = (await request(first.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 3 }).expect(200)).body.episode_id;
    await request(first.http).post('/step').send({ episode_id: id, action: { type: 'resolve_ticket', resolution: 'information_provided' } }).expect(200);
    await first.app.close();
    await forgePerfectLog(id, true, url);
    await withDirect(url, async (db) => {
      await db.run('UPDATE episodes SET chain_key_id = NULL');
      await db.run('DELETE FROM legacy_chain_seals');
    });
    const restarted = await startTestApp(url, { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
    try {
      const report = (await request(restarted.http).get(`/episodes/${id}/verify`).set(asAdmin).expect(200)).body;
      expect(report).toMatchObject({ chain_ok: false, stored_score: 1, chain_scheme: 'sha256-v1', first_bad_index: 0 });
      expect(report.problem).toMatch(/never sealed/);
      const events = (await request(restarted.http).get('/admin/events').set(asAdmin).expect(200)).body.events;
      expect(events.filter((e: { action: string }) => e.action === 'chain.legacy_sealed')).toEqual([]);
    } finally {
      await restarted.app.close();
    }
  });

  it('the columns /stats and filters read are covered: tag rows, component scores, step count and status', async () => {
    const forge = (id: string, sql: string) => withDirect(ctx.databaseUrl, (db) => db.run(sql, [id]));
    const tagged = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', tags: ['eval'] }).expect(200)).body.episode_id;
    await request(ctx.http).post('/step').set(bearer(key)).send({ episode_id: tagged, action: billing[0] }).expect(200);
    expect(await verify(tagged)).toMatchObject({ chain_ok: true, replay_ok: true });

    // A failed episode slipped out of the "eval" set (its tag row deleted), or another one slipped in.
    const dropped = await failedEpisode();
    await forge(dropped, "INSERT INTO episode_tags (episode_id, tenant_id, tag) SELECT id, tenant_id, 'eval' FROM episodes WHERE id = ?");
    expect(await verify(dropped)).toMatchObject({ chain_ok: false, first_bad_index: 0, problem: expect.stringMatching(/tag rows/) });
    const removed = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', tags: ['eval'] }).expect(200)).body.episode_id;
    await forge(removed, 'DELETE FROM episode_tags WHERE episode_id = ?');
    expect(await verify(removed)).toMatchObject({ chain_ok: false, problem: expect.stringMatching(/tag rows/) });

    // Component columns (what /stats averages) raised, the step count changed, the status flipped.
    for (const change of ['reply_milli = 200, resolution_milli = 300', 'step_count = 1', "status = 'resolved'"]) {
      const id = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
      await request(ctx.http).post('/step').set(bearer(key)).send({ episode_id: id, action: billing[0] }).expect(200);
      await request(ctx.http).post('/step').set(bearer(key)).send({ episode_id: id, action: billing[1] }).expect(200);
      await forge(id, `UPDATE episodes SET ${change} WHERE id = ?`);
      expect([change, await verify(id)]).toEqual([change, expect.objectContaining({ chain_ok: true, replay_ok: false, problem: expect.stringMatching(/stored/) })]);
    }
    // An active episode marked expired: the replay allows it (the idle sweep could have), the ledger knows it did not.
    const idle = (await request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
    await forge(idle, "UPDATE episodes SET status = 'expired' WHERE id = ?");
    expect(await verify(idle)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: false });
  });

  it("changing an episode's metadata (agent, tags, seed) is caught", async () => {
    for (const change of ["agent = 'forged-agent'", `tags_json = '["eval"]'`, 'seed = seed + 1']) {
      const id = await failedEpisode();
      await withDirect(ctx.databaseUrl, (db) => db.run(`UPDATE episodes SET ${change} WHERE id = ?`, [id]));
      // The chain breaks at its first link; the ledger recorded the metadata at creation, so it is caught there (0) too.
      expect([change, await verify(id)]).toEqual([change, expect.objectContaining({ chain_ok: false, ledger_ok: false, first_bad_index: 0 })]);
    }
  });

  it('a new chain key chains new episodes while episodes of the retired one still verify (and not without it)', async () => {
    const id = await failedEpisode();
    const retired = join(mkdtempSync(join(tmpdir(), 'supportdesk-retired-')), 'retired-keys');
    writeFileSync(retired, `# rotated 2026-11-30\n${CHAIN_KEY}\n`, { mode: 0o600 });
    const rotated = await startTestApp(ctx.databaseUrl, { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY: 'a-newer-chain-key-0123456789abcdef0123', CHAIN_RETIRED_KEYS_FILE: retired });
    try {
      const old = (await request(rotated.http).get(`/episodes/${id}/verify`).set(bearer(reader)).expect(200)).body;
      const fresh = (await request(rotated.http).post('/reset').set(bearer(key)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
      const now = (await request(rotated.http).get(`/episodes/${fresh}/verify`).set(bearer(reader)).expect(200)).body;
      expect(old).toMatchObject({ chain_ok: true });
      expect(now).toMatchObject({ chain_ok: true });
      expect(now.chain_key_id).not.toBe(old.chain_key_id);
    } finally {
      await rotated.app.close();
    }
    const forgetful = await startTestApp(ctx.databaseUrl, { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY: 'a-newer-chain-key-0123456789abcdef0123' });
    try {
      const report = (await request(forgetful.http).get(`/episodes/${id}/verify`).set(bearer(reader)).expect(200)).body;
      expect(report).toMatchObject({ chain_ok: false });
      expect(report.problem).toMatch(/does not hold.*CHAIN_RETIRED_KEYS_FILE/);
    } finally {
      await forgetful.app.close();
    }
  });
});

describe('episode ids are scoped to the tenant', () => {
  it('two tenants may use one id; a tenant reusing its own gets 409; the admin names the tenant when ambiguous', async () => {
    const ctx = await listening();
    try {
      const a = await tenantWithKey(ctx.http, 'ids-a');
      const b = await tenantWithKey(ctx.http, 'ids-b');
      await request(ctx.http).post('/reset').set(bearer(a.key)).send({ variant: 'canonical', episode_id: 'run-1' }).expect(200);
      await request(ctx.http).post('/reset').set(bearer(b.key)).send({ variant: 'canonical', episode_id: 'run-1', task_id: 'security_compromised_account' }).expect(200);
      const taken = await request(ctx.http).post('/reset').set(bearer(a.key)).send({ variant: 'canonical', episode_id: 'run-1' }).expect(409);
      expect(taken.body.message).toMatch(/already exists/);
      await request(ctx.http).post('/step').set(bearer(b.key)).send({ episode_id: 'run-1', action: billing[0] }).expect(200);
      expect((await request(ctx.http).get('/state/run-1').set(bearer(a.key)).expect(200)).body).toMatchObject({ step_count: 0, task_id: 'billing_duplicate_charge' });
      expect((await request(ctx.http).get('/episodes/run-1').set(asAdmin).expect(409)).body.message).toMatch(/tenant=<slug>/);
      expect((await request(ctx.http).get('/episodes/run-1?tenant=ids-b').set(asAdmin).expect(200)).body.task_id).toBe('security_compromised_account');
      for (const tenant of ['ids-a', 'ids-b']) {
        expect((await request(ctx.http).get(`/episodes/run-1/verify?tenant=${tenant}`).set(asAdmin).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true });
      }
    } finally {
      await ctx.app.close();
    }
  });
});

describe('key scopes and the admin log', () => {
  it('an agent key runs episodes and reads only its own; a reader reads the whole tenant and runs nothing', async () => {
    const ctx = await listening();
    try {
      const { key: agentOne, readerKey } = await tenantWithKey(ctx.http, 'scoped');
      const { key: agentTwo } = await issueKey(ctx.http, 'scoped', 'agent');
      const solved = (await request(ctx.http).post('/reset').set(bearer(agentOne)).send({ variant: 'canonical', seed: 1 }).expect(200)).body.episode_id;
      for (const action of billing) await request(ctx.http).post('/step').set(bearer(agentOne)).send({ episode_id: solved, action }).expect(200);
      // The agent under evaluation cannot copy another agent's answers.
      await request(ctx.http).get('/episodes?min_score=1').set(bearer(agentTwo)).expect(403);
      await request(ctx.http).get(`/episodes/${solved}/actions`).set(bearer(agentTwo)).expect(403);
      await request(ctx.http).get(`/state/${solved}`).set(bearer(agentTwo)).expect(404);
      await request(ctx.http).post('/grader').set(bearer(agentTwo)).send({ episode_id: solved }).expect(404);
      await request(ctx.http).get('/state').set(bearer(agentTwo)).expect(404);
      const own = (await request(ctx.http).post('/reset').set(bearer(agentTwo)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
      expect((await request(ctx.http).get('/state').set(bearer(agentTwo)).expect(200)).body.episode_id).toBe(own);
      expect((await request(ctx.http).get('/state').set(bearer(agentOne)).expect(200)).body.episode_id).toBe(solved);
      // The reader audits everything and runs nothing.
      const listed = (await request(ctx.http).get('/episodes?min_score=1').set(bearer(readerKey)).expect(200)).body.items;
      expect(listed.map((e: { episode_id: string }) => e.episode_id)).toEqual([solved]);
      await request(ctx.http).get(`/state/${own}`).set(bearer(readerKey)).expect(200);
      await request(ctx.http).get('/stats').set(bearer(readerKey)).expect(200);
      await request(ctx.http).post('/reset').set(bearer(readerKey)).send({ variant: 'canonical' }).expect(403);
      await request(ctx.http).post('/step').set(bearer(readerKey)).send({ episode_id: own, action: billing[0] }).expect(403);
      await request(ctx.http).post('/baseline').set(bearer(readerKey)).send({}).expect(403);
      await expect(openWsClient(ctx.ws, bearer(readerKey))).rejects.toThrow(/403/);
    } finally {
      await ctx.app.close();
    }
  });

  it("another agent key of the tenant cannot replay a step's response by its request_id, nor learn from a 409 that it was used", async () => {
    const ctx = await listening();
    try {
      await tenantWithKey(ctx.http, 'replay');
      const owner = await issueKey(ctx.http, 'replay', 'agent');
      const other = await issueKey(ctx.http, 'replay', 'agent');
      const id = (await request(ctx.http).post('/reset').set(bearer(owner.key)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
      await request(ctx.http).post('/step').set(bearer(owner.key)).send({ episode_id: id, request_id: 'r-1', action: billing[0] }).expect(200);
      // The owner's retry gets the recorded answer; another agent key gets the answer of an episode it cannot see.
      await request(ctx.http).post('/step').set(bearer(owner.key)).send({ episode_id: id, request_id: 'r-1', action: billing[0] }).expect(200);
      const same = await request(ctx.http).post('/step').set(bearer(other.key)).send({ episode_id: id, request_id: 'r-1', action: billing[0] }).expect(404);
      const different = await request(ctx.http).post('/step').set(bearer(other.key)).send({ episode_id: id, request_id: 'r-1', action: billing[1] }).expect(404);
      const unused = await request(ctx.http).post('/step').set(bearer(other.key)).send({ episode_id: id, request_id: 'r-2', action: billing[1] }).expect(404);
      expect([same.body.message, different.body.message]).toEqual([unused.body.message, unused.body.message]);
      expect(JSON.stringify(same.body)).not.toContain('observation');
    } finally {
      await ctx.app.close();
    }
  });

  it('each agent key names episodes in its own space: an id another key used is no 409, so /reset is no oracle across keys', async () => {
    const ctx = await listening();
    try {
      const { readerKey } = await tenantWithKey(ctx.http, 'namespaces');
      const first = await issueKey(ctx.http, 'namespaces', 'agent');
      const second = await issueKey(ctx.http, 'namespaces', 'agent');
      const reset = (key: string, body: object) => request(ctx.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', ...body });
      expect((await reset(first.key, { episode_id: 'run-1' }).expect(200)).body.episode_id).toBe('run-1');
      // The second key cannot tell that the first used "run-1": its reset succeeds as for a fresh id.
      const fresh = await reset(second.key, { episode_id: 'unused-1' }).expect(200);
      const clash = await reset(second.key, { episode_id: 'run-1' }).expect(200);
      expect([Object.keys(clash.body).sort(), clash.body.episode_id]).toEqual([Object.keys(fresh.body).sort(), 'run-1']);
      // Each key steps and reads its own "run-1"; reusing one's own id is still a 409, for either key.
      await request(ctx.http).post('/step').set(bearer(second.key)).send({ episode_id: 'run-1', request_id: 'q-1', action: billing[0] }).expect(200);
      await request(ctx.http).post('/step').set(bearer(second.key)).send({ episode_id: 'run-1', request_id: 'q-1', action: billing[0] }).expect(200);
      await request(ctx.http).post('/step').set(bearer(second.key)).send({ episode_id: 'run-1', action: billing[1] }).expect(200);
      expect((await request(ctx.http).get('/state/run-1').set(bearer(second.key)).expect(200)).body).toMatchObject({ episode_id: 'run-1', step_count: 2 });
      expect((await request(ctx.http).get('/state').set(bearer(second.key)).expect(200)).body).toMatchObject({ episode_id: 'run-1', step_count: 2 });
      expect((await request(ctx.http).post('/grader').set(bearer(second.key)).send({ episode_id: 'run-1' }).expect(200)).body.episode_id).toBe('run-1');
      expect((await request(ctx.http).get('/state/run-1').set(bearer(first.key)).expect(200)).body).toMatchObject({ episode_id: 'run-1', step_count: 0 });
      for (const key of [first.key, second.key]) expect((await reset(key, { episode_id: 'run-1' }).expect(409)).body.message).toMatch(/already exists/);
      // Over /ws too: a third key's "run-1" is its own.
      const third = await issueKey(ctx.http, 'namespaces', 'agent');
      const ws = await openWsClient(ctx.ws, bearer(third.key));
      expect(await ws.ask({ type: 'reset', data: { variant: 'canonical', episode_id: 'run-1' } })).toMatchObject({ type: 'observation' });
      expect(await ws.ask({ type: 'state' })).toMatchObject({ type: 'state', data: { episode_id: 'run-1', step_count: 0 } });
      ws.close();
      // A reader sees three episodes: the first key's under "run-1", the others under fresh ids with "run-1" as the
      // alias their keys call them by; each verifies.
      const listed = (await request(ctx.http).get('/episodes').set(bearer(readerKey)).expect(200)).body.items as { episode_id: string; alias: string | null }[];
      const named = listed.filter((e) => e.episode_id !== fresh.body.episode_id);
      const ids = named.map((e) => e.episode_id);
      expect(ids).toHaveLength(3);
      expect(ids.filter((id) => id === 'run-1')).toHaveLength(1);
      expect(named.map((e) => (e.episode_id === 'run-1' ? e.alias : `${e.alias} for another`)).sort()).toEqual([null, 'run-1 for another', 'run-1 for another']);
      expect(listed.find((e) => e.episode_id === fresh.body.episode_id)!.alias).toBeNull();
      expect((await request(ctx.http).get('/episodes/run-1').set(bearer(readerKey)).expect(200)).body.step_count).toBe(0);
      for (const id of ids) expect((await request(ctx.http).get(`/episodes/${id}/verify`).set(bearer(readerKey)).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true });
      // The second key can no more reach the first key's episode than before.
      expect((await request(ctx.http).get(`/state/${ids.find((id) => id !== 'run-1')}`).set(bearer(first.key)).expect(404)).body.message).toMatch(/no episode/);
    } finally {
      await ctx.app.close();
    }
  });

  it('records tenants created and keys issued and revoked, for the admin only, without secrets', async () => {
    const ctx = await listening();
    try {
      const { key, keyId } = await tenantWithKey(ctx.http, 'logged-lab');
      await request(ctx.http).delete(`/admin/tenants/logged-lab/keys/${keyId}`).set(asAdmin).expect(200);
      const events = (await request(ctx.http).get('/admin/events').set(asAdmin).expect(200)).body.events;
      expect(events.map((e: { action: string; tenant: string }) => [e.action, e.tenant])).toEqual([
        ['key.revoked', 'logged-lab'],
        ['key.issued', 'logged-lab'],
        ['key.issued', 'logged-lab'],
        ['tenant.created', 'logged-lab'],
      ]);
      expect(events[2].detail).toMatchObject({ scope: 'agent', prefix: key.slice(0, 12) });
      expect(JSON.stringify(events)).not.toContain(key);
      const page = (await request(ctx.http).get(`/admin/events?limit=2&before_id=${events[1].id}`).set(asAdmin).expect(200)).body.events;
      expect(page.map((e: { id: number }) => e.id)).toEqual([events[2].id, events[3].id]);
      const { readerKey } = await tenantWithKey(ctx.http, 'other-lab');
      await request(ctx.http).get('/admin/events').set(bearer(readerKey)).expect(403);
    } finally {
      await ctx.app.close();
    }
  });
});

describe('safe defaults', () => {
  it('answers only the Host names it is configured for, and refuses other web origins, on HTTP, /ws and /mcp', async () => {
    const ctx = await listening();
    try {
      await request(ctx.http).get('/health').set('Host', `localhost:${ctx.port}`).expect(200);
      await request(ctx.http).get('/health').set('Host', `[::1]:${ctx.port}`).expect(200);
      const rebound = await request(ctx.http).post('/reset').set('Host', 'attacker.example').send({ variant: 'canonical' }).expect(403);
      expect(rebound.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/ALLOWED_HOSTS/) });
      await request(ctx.http).post('/reset').set('Origin', 'https://attacker.example').send({ variant: 'canonical' }).expect(403);
      // The server's own origin (as the browser addressed it) is allowed; another name for it is another origin.
      await request(ctx.http).post('/reset').set('Host', `localhost:${ctx.port}`).set('Origin', `http://localhost:${ctx.port}`).send({ variant: 'canonical' }).expect(200);
      await request(ctx.http).post('/mcp').set('Origin', 'https://attacker.example').send({ jsonrpc: '2.0', id: 1, method: 'initialize' }).expect(403);
      await expect(openWsClient(ctx.ws, { Origin: 'https://attacker.example' })).rejects.toThrow(/403/);
      await expect(openWsClient(ctx.ws, { Host: 'attacker.example' })).rejects.toThrow(/403/);
    } finally {
      await ctx.app.close();
    }
    const open = await listening({ ALLOWED_HOSTS: 'supportdesk.example.org', ALLOWED_ORIGINS: 'https://console.example.org' });
    try {
      await request(open.http).get('/health').set('Host', 'supportdesk.example.org').expect(200);
      await request(open.http).get('/health').set('Host', `127.0.0.1:${open.port}`).expect(403);
      await request(open.http).post('/reset').set('Host', 'supportdesk.example.org').set('Origin', 'https://console.example.org').send({ variant: 'canonical' }).expect(200);
    } finally {
      await open.app.close();
    }
  });

  // A SQLite file's permissions; a PostgreSQL server keeps its own files.
  if (!testsRunOnPostgres()) it('creates the database readable by the server user only, and its WAL too', async () => {
    // A file that does not exist yet, created by the migration step as `npm start` does.
    const url = freshDatabaseUrl().replace('test.db', 'fresh.db');
    migrateDatabase(url);
    const ctx = await startTestApp(url);
    try {
      await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
      const file = ctx.databaseUrl.slice('file:'.length);
      for (const path of [file, `${file}-wal`, `${file}.chain-key`]) expect([path, statSync(path).mode & 0o777]).toEqual([path, 0o600]);
    } finally {
      await ctx.app.close();
    }
  });

  it("a 429 says which limit and when to retry, and a local user's loop is never throttled by default", async () => {
    const ctx = await listening();
    try {
      const responses = await Promise.all(Array.from({ length: 300 }, () => request(ctx.http).get('/tasks')));
      expect(responses.every((r) => r.status === 200)).toBe(true);
    } finally {
      await ctx.app.close();
    }
  });
});

describe('inputs', () => {
  let ctx: Awaited<ReturnType<typeof listening>>;
  beforeAll(async () => {
    ctx = await listening({ HEADERS_TIMEOUT_MS: '1000' });
  });
  afterAll(() => ctx.app.close());

  it('null means omitted: request_id, amount, episode_id and reset fields sent as null', async () => {
    const started = await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: null, seed: null, episode_id: null, agent: null, tags: null }).expect(200);
    expect(started.body.info.task_id).toBe('billing_duplicate_charge');
    const id = started.body.episode_id;
    await request(ctx.http).post('/step').send({ episode_id: id, request_id: null, action: billing[0] }).expect(200);
    const done = await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'resolve_ticket', resolution: 'no_action_needed', amount: null } }).expect(200);
    expect(done.body.done).toBe(true);
    await request(ctx.http).post('/step').send({ episode_id: null, action: billing[0] }).expect(422);
  });

  it('null on a field no message declares is refused as that field, on HTTP, /ws and /mcp, and creates nothing', async () => {
    const episodes = async () => (await request(ctx.http).get('/episodes').set(asAdmin).expect(200)).body.items.length;
    const before = await episodes();
    const reset = await request(ctx.http).post('/reset').send({ variant: 'canonical', d: null, '(YE': null }).expect(422);
    expect(reset.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['(YE', 'd']);
    const started = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
    const forced = await request(ctx.http).post('/step').send({ episode_id: started, action: { ...billing[0], force: null } }).expect(422);
    expect(forced.body.details).toEqual([{ field: 'action.force', message: 'property force should not exist' }]);
    // The same message without the stray field is fine, and null on a declared field still means "not given".
    await request(ctx.http).post('/step').send({ episode_id: started, request_id: null, action: billing[0] }).expect(200);

    const ws = await openWsClient(ctx.ws);
    const refused = await ws.ask({ type: 'reset', data: { variant: 'canonical', d: null } });
    expect(refused).toMatchObject({ type: 'error', data: { status: 422 } });
    expect(JSON.stringify(refused.data)).toContain('d should not exist');
    ws.close();

    const mcp = await request(ctx.http)
      .post('/mcp')
      .set('accept', 'application/json, text/event-stream')
      .set('x-episode-id', started)
      .send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })
      .expect(200);
    const session = { 'mcp-session-id': mcp.headers['mcp-session-id'], accept: 'application/json, text/event-stream' };
    const call = await request(ctx.http)
      .post('/mcp')
      .set(session)
      .send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'set_priority', arguments: { priority: 'high', force: null } } })
      .expect(200);
    expect(call.text).toMatch(/force/);
    expect(call.text).toMatch(/should not exist|Unrecognized key/);
    const state = (await request(ctx.http).get(`/state/${started}`).expect(200)).body;
    expect(state.step_count).toBe(1);
    expect(await episodes()).toBe(before + 1);
  });

  it('refuses dates outside what the database holds, in filters and cursors, with 422', async () => {
    const cursor = Buffer.from(JSON.stringify(['-271821-04-20T00:00:00.000Z', 'x'])).toString('base64url');
    expect((await request(ctx.http).get(`/episodes?cursor=${cursor}`).expect(422)).body.details[0].field).toBe('cursor');
    expect((await request(ctx.http).get('/episodes?created_after=+275760-09-13T00:00:00.000Z').expect(422)).body.details[0].field).toBe('created_after');
  });

  it('refuses "." and ".." as episode ids, and never answers /state/. with another episode', async () => {
    for (const id of ['.', '..']) {
      expect((await request(ctx.http).post('/reset').send({ variant: 'canonical', episode_id: id }).expect(422)).body.details[0].field).toBe('episode_id');
    }
    await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
    for (const path of ['/state/.', '/state/..', '/state/%2e', '/state/%2E%2E']) {
      const res = await request(ctx.http).get(path);
      expect([path, res.status]).toEqual([path, 404]);
    }
  });

  it('decides authentication before reading the body: a wrong key with a malformed body is 401', async () => {
    await request(ctx.http).post('/step').set(bearer('sdk_wrong')).set('content-type', 'application/json').send('{"broken": ').expect(401);
    await request(ctx.http).post('/step').set(bearer('sdk_wrong')).set('content-type', 'text/plain').send('hello').expect(401);
  });

  it('a body that is not a JSON object is 400, as documented', async () => {
    for (const body of ['[1,2]', '"text"', '5', 'null']) {
      const res = await request(ctx.http).post('/reset').set('content-type', 'application/json').send(body).expect(400);
      expect(res.body.message).toBe('the request body is not a valid JSON object');
    }
  });

  it('cuts a client trickling its headers once HEADERS_TIMEOUT_MS has passed, not up to 30 s later', async () => {
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(ctx.port, '127.0.0.1', () => socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      let text = '';
      const drip = setInterval(() => socket.writable && socket.write('X-Slow: 1\r\n'), 200);
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        resolve(text);
      });
    });
    const elapsed = Date.now() - started;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(4_000);
  });
});
