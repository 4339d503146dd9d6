import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { ManualClock } from '../src/common/clock';
import { migrateDatabase } from '../src/database/migrate';
import { freshDatabaseUrl, startTestApp } from './support/test-app';
import { STORED_STATE_JSON } from '../src/episodes/active-state';

/*
 * Episodes the release before this one stored, each with its state snapshot (test/fixtures/upgrade/snapshots-release.sql,
 * written by the server at 358503d through its API), after today's migrations: every one reads exactly as that
 * release answered, verifies (chain, replay, ledger), continues, and retention can purge them with what remains
 * still verifying.
 */

const FIXTURE = join(__dirname, 'fixtures', 'upgrade');
const stored = JSON.parse(readFileSync(join(FIXTURE, 'snapshots-release.json'), 'utf8')) as {
  admin_key: string;
  agent_key: string;
  chain_key: string;
  episodes: Record<string, string>;
  views: Record<string, { state: unknown; detail: unknown }>;
};
const admin = { Authorization: `Bearer ${stored.admin_key}` };
const agent = { Authorization: `Bearer ${stored.agent_key}` };
/** Shortly after the fixture was written: its active episodes are not idle yet. */
const clock = new ManualClock('2026-12-03T13:00:00Z');
let ctx: Awaited<ReturnType<typeof startTestApp>>;

const snapshotOf = (id: string): string => {
  const db = new BetterSqlite3(ctx.databaseUrl.slice('file:'.length), { readonly: true });
  try {
    return (db.prepare(`SELECT ${STORED_STATE_JSON} AS state_json FROM episodes WHERE id = ?`).get(id) as { state_json: string }).state_json;
  } finally {
    db.close();
  }
};

beforeAll(async () => {
  const url = freshDatabaseUrl().replace('test.db', 'snapshots-release.db');
  const db = new BetterSqlite3(url.slice('file:'.length));
  db.exec(readFileSync(join(FIXTURE, 'snapshots-release.sql'), 'utf8'));
  db.close();
  migrateDatabase(url);
  ctx = await startTestApp(url, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: stored.admin_key, CHAIN_KEY: stored.chain_key }, { clock });
});
afterAll(() => ctx?.app.close());

const entries = () => Object.entries(stored.episodes);

it('holds finished and active episodes, every finished one with its snapshot', () => {
  const names = Object.keys(stored.episodes);
  expect(names.filter((n) => n.endsWith('/active'))).toHaveLength(3);
  expect(names).toHaveLength(12);
  for (const [, id] of entries()) expect(snapshotOf(id)).not.toBe('');
});

it.each(Object.entries(stored.episodes))('%s reads as the previous release answered, and verifies', async (name, id) => {
  expect((await request(ctx.http).get(`/state/${id}`).set(agent).expect(200)).body).toEqual(stored.views[name].state);
  expect((await request(ctx.http).get(`/episodes/${id}?tenant=lab`).set(admin).expect(200)).body).toEqual(stored.views[name].detail);
  expect((await request(ctx.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
});

it('an active episode of that release continues; once it ends it keeps no snapshot and still verifies', async () => {
  const id = stored.episodes['billing_duplicate_charge/seed-2/active'];
  // Its three steps opened the ticket that needs action: resolving it ends the episode.
  const done = (await request(ctx.http).post('/step').set(agent).send({ episode_id: id, action: { type: 'resolve_ticket', resolution: 'information_provided' } }).expect(200)).body;
  expect(done.done).toBe(true);
  expect(snapshotOf(id)).toBe('');
  const state = (await request(ctx.http).get(`/state/${id}`).set(agent).expect(200)).body;
  expect(state).toMatchObject({ done: true, step_count: 4 });
  expect((await request(ctx.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
});

it("retention purges that release's finished episodes; the rest and the tenant ledger still verify", async () => {
  clock.advance(40 * 86_400_000);
  await request(ctx.http).put('/admin/tenants/lab/retention').set(admin).send({ retention_days: 30 }).expect(200);
  const swept = (await request(ctx.http).post('/admin/retention/sweep').set(admin).expect(200)).body;
  // Nine finished in the fixture, and the one the test above finished.
  expect(swept.tenants).toEqual([expect.objectContaining({ tenant: 'lab', episodes: 10 })]);
  for (const [name, id] of entries()) {
    const kept = name.endsWith('/active') && !name.startsWith('billing');
    const res = await request(ctx.http).get(`/episodes/${id}?tenant=lab`).set(admin);
    expect([name, res.status]).toEqual([name, kept ? 200 : 404]);
    if (kept) expect((await request(ctx.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
  }
  expect((await request(ctx.http).get('/ledger/verify?tenant=lab').set(admin).expect(200)).body.tenants[0]).toMatchObject({ ledger_ok: true, problems: [] });
});
