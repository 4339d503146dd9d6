import { CURRENT_GRADER_VERSION } from '../src/engine/graders';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { migrateDatabase } from '../src/database/migrate';
import { SOLUTIONS } from './fixtures/solutions';
import { ManualClock } from '../src/common/clock';
import { bearer } from './support/tenants';
import { freshDatabaseUrl, startTestApp } from './support/test-app';
import { APPEND_ONLY_TRIGGERS } from './support/append-only-triggers';

/*
 * Upgrades keep data: a database filled by the previous release (test/fixtures/upgrade, made by driving that
 * release through its API) is migrated to today's schema, and every episode still reads, continues and verifies.
 */

const FIXTURE = join(__dirname, 'fixtures', 'upgrade');
const release = JSON.parse(readFileSync(join(FIXTURE, 'release-0.1.json'), 'utf8')) as {
  admin_key: string;
  keys: { alpha: string; beta: string };
  revoked_key_id: string;
  episodes: Record<string, string>;
};

/** When the previous release last wrote to the fixture: its active episodes were last stepped then. */
const FIXTURE_WRITTEN_AT = new Date('2026-11-30T05:17:05.509Z');
const HOUR_MS = 3_600_000;
/** The default EPISODE_IDLE_TIMEOUT_MINUTES (1440), in milliseconds. */
const DEFAULT_IDLE_TIMEOUT_MS = 24 * HOUR_MS;

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let counts: Record<string, number>;
const admin = { Authorization: `Bearer ${release.admin_key}` };

/** A fresh file holding the previous release's dump (its schema, triggers, migrations table and rows), migrated. */
function releaseDatabase(): string {
  const url = freshDatabaseUrl().replace('test.db', 'release.db');
  const db = new BetterSqlite3(url.slice('file:'.length));
  db.exec(readFileSync(join(FIXTURE, 'release-0.1.sql'), 'utf8'));
  counts = Object.fromEntries(['tenants', 'api_keys', 'episodes', 'action_log', 'episode_tags', 'step_requests'].map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n]));
  db.close();
  migrateDatabase(url);
  return url;
}

/** The server started on the upgraded file at a stated time (the default idle timeout applies, as in production). */
const startAt = (url: string, time: Date) => startTestApp(url, { ADMIN_API_KEY: release.admin_key }, { clock: new ManualClock(time) });

beforeAll(async () => {
  // An hour after the previous release stopped: the upgrade is what happens, not a day's idleness.
  ctx = await startAt(releaseDatabase(), new Date(FIXTURE_WRITTEN_AT.getTime() + HOUR_MS));
  // Right after the upgrade the admin seals the episodes of the unkeyed chain; the server never does by itself.
  const unsealed = (await request(ctx.http).get(`/episodes/${release.episodes.alpha_done}/verify`).set(admin).expect(200)).body;
  expect(unsealed).toMatchObject({ chain_ok: false, problem: expect.stringMatching(/never sealed/) });
  const count = Object.keys(release.episodes).length;
  const enrolment = (await request(ctx.http).post('/admin/ledger/enroll').set(admin).expect(200)).body;
  expect(enrolment).toEqual({ sealed: count, enrolled: count, chain_key_id: expect.stringMatching(/^hk_/) });
  expect((await request(ctx.http).post('/admin/ledger/enroll').set(admin).expect(200)).body).toMatchObject({ sealed: 0, enrolled: 0 });
  const events = (await request(ctx.http).get('/admin/events').set(admin).expect(200)).body.events;
  expect(events.filter((e: { action: string }) => e.action === 'chain.legacy_sealed').map((e: { tenant: string; detail: { episodes: string } }) => [e.tenant, e.detail.episodes]).sort()).toEqual(
    expect.arrayContaining([['alpha', expect.any(String)], ['beta', expect.any(String)], ['public', expect.any(String)]]),
  );
});
afterAll(() => ctx.app.close());

describe('the start-up sweep on an upgraded file', () => {
  const activeStatuses = async (app: Awaited<ReturnType<typeof startTestApp>>) => {
    const statuses: Record<string, string> = {};
    for (const name of ['alpha_active', 'beta_active', 'public_active']) {
      statuses[name] = (await request(app.http).get(`/episodes/${release.episodes[name]}`).set(admin).expect(200)).body.status;
    }
    return statuses;
  };

  it('keeps episodes idle for less than EPISODE_IDLE_TIMEOUT_MINUTES active', async () => {
    const justInside = await startAt(releaseDatabase(), new Date(FIXTURE_WRITTEN_AT.getTime() + DEFAULT_IDLE_TIMEOUT_MS - 60_000));
    try {
      expect(await activeStatuses(justInside)).toEqual({ alpha_active: 'active', beta_active: 'active', public_active: 'active' });
    } finally {
      await justInside.app.close();
    }
  });

  it('expires episodes idle for longer, before the first request is served, and refuses to step them', async () => {
    const dayLater = await startAt(releaseDatabase(), new Date(FIXTURE_WRITTEN_AT.getTime() + DEFAULT_IDLE_TIMEOUT_MS + 60_000));
    try {
      expect(await activeStatuses(dayLater)).toEqual({ alpha_active: 'expired', beta_active: 'expired', public_active: 'expired' });
      const id = release.episodes.public_active;
      const state = (await request(dayLater.http).get(`/state/${id}`).expect(200)).body;
      const next = SOLUTIONS[state.task_id].actions[state.step_count];
      await request(dayLater.http).post('/step').send({ episode_id: id, action: next }).expect(409);
    } finally {
      await dayLater.app.close();
    }
  });
});

it('keeps every row of every table', () => {
  const db = new BetterSqlite3(ctx.databaseUrl.slice('file:'.length), { readonly: true });
  for (const [table, n] of Object.entries(counts)) {
    expect([table, (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n]).toEqual([table, n]);
  }
  // The append-only triggers survived the migration.
  expect(() => db.prepare('SELECT 1').get()).not.toThrow();
  const triggers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
  expect(triggers).toEqual(APPEND_ONLY_TRIGGERS);
  db.close();
});

it('existing keys still authenticate (as agent keys), a revoked one still does not, and tenants are listed', async () => {
  await request(ctx.http).get(`/state/${release.episodes.alpha_done}`).set(bearer(release.keys.alpha)).expect(200);
  const keys = (await request(ctx.http).get('/admin/tenants/alpha/keys').set(admin).expect(200)).body.keys;
  expect(keys.map((k: { scope: string; revoked_at: string | null }) => [k.scope, k.revoked_at === null])).toEqual([
    ['agent', true],
    ['agent', false],
  ]);
  expect(keys.find((k: { id: string }) => k.id === release.revoked_key_id).revoked_at).not.toBeNull();
  const tenants = (await request(ctx.http).get('/admin/tenants').set(admin).expect(200)).body.tenants;
  expect(tenants.map((t: { slug: string }) => t.slug).sort()).toEqual(['alpha', 'beta', 'public']);
});

it.each(Object.entries(release.episodes))('%s reads and verifies under its sealed pre-HMAC chain, with the grader that scored it', async (_name, id) => {
  const detail = (await request(ctx.http).get(`/episodes/${id}`).set(admin).expect(200)).body;
  expect(detail).toMatchObject({ episode_id: id, grader_version: 1 });
  const report = (await request(ctx.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body;
  expect(report).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true, chain_scheme: 'sha256-v1', chain_key_id: expect.stringMatching(/^hk_/), grader_version: 1 });
  expect(report.stored_score).toBe(detail.score);
});

it('re-scoring an old episode under the current grader is a separate report that changes nothing', async () => {
  const id = release.episodes.alpha_done;
  const before = (await request(ctx.http).get(`/episodes/${id}`).set(admin).expect(200)).body;
  const report = (await request(ctx.http).get(`/episodes/${id}/rescore`).set(admin).expect(200)).body;
  expect(report.stored).toEqual({ grader_version: 1, task_version: before.task_version, score: before.score });
  expect(report.rescored).toMatchObject({ grader_version: CURRENT_GRADER_VERSION, steps_replayed: before.step_count });
  expect(report.rescored.task_version).not.toBe(before.task_version);
  expect(report.rescored.reply_details.length).toBeGreaterThan(0);
  for (const detail of report.rescored.reply_details) expect(detail.description).toEqual(expect.any(String));
  const after = (await request(ctx.http).get(`/episodes/${id}`).set(admin).expect(200)).body;
  expect(after).toEqual(before);
  expect((await request(ctx.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body).toMatchObject({ replay_ok: true, grader_version: 1 });
});

it.each([
  ['alpha_active', release.keys.alpha],
  ['beta_active', release.keys.beta],
  ['public_active', null],
])('%s continues to 1.0 with the key of its tenant, and verifies with its unkeyed and keyed rows', async (name, key) => {
  const id = release.episodes[name];
  const auth = key ? bearer(key) : {};
  const before = (await request(ctx.http).get(`/state/${id}`).set(auth).expect(200)).body;
  const remaining = SOLUTIONS[before.task_id].actions.slice(before.step_count);
  let last: { done: boolean; info: { score: number } } | undefined;
  for (const action of remaining) last = (await request(ctx.http).post('/step').set(auth).send({ episode_id: id, action }).expect(200)).body;
  expect(last).toMatchObject({ done: true, info: { score: 1 } });
  // Started under grader version 1, finished under it: an episode never changes grader midway.
  const report = (await request(ctx.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body;
  expect(report).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true, chain_scheme: 'sha256-v1', replayed_score: 1, grader_version: 1 });
});

it('an idempotent step recorded by the previous release still answers its retry', async () => {
  const id = release.episodes.alpha_done;
  const state = (await request(ctx.http).get(`/state/${id}`).set(bearer(release.keys.alpha)).expect(200)).body;
  const first = state.actions[0];
  const retried = await request(ctx.http).post('/step').set(bearer(release.keys.alpha)).send({ episode_id: id, action: first.action, request_id: 'fixture-0' }).expect(200);
  expect(retried.body.info.step_count).toBe(1);
});

it('new episodes next to the old ones are keyed, and a tampered old episode is still caught', async () => {
  const fresh = (await request(ctx.http).post('/reset').set(bearer(release.keys.beta)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
  expect((await request(ctx.http).get(`/episodes/${fresh}/verify`).set(admin).expect(200)).body.chain_scheme).toBe('hmac-sha256-v2');
  const db = new BetterSqlite3(ctx.databaseUrl.slice('file:'.length));
  db.prepare("UPDATE episodes SET agent = 'forged-agent' WHERE id = ?").run(release.episodes.alpha_partial_done);
  db.close();
  const report = (await request(ctx.http).get(`/episodes/${release.episodes.alpha_partial_done}/verify`).set(admin).expect(200)).body;
  expect(report).toMatchObject({ chain_ok: false, first_bad_index: 0 });
});
