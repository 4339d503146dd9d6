import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { ManualClock } from '../../src/common/clock';
import { loadConfig } from '../../src/config/app-config';
import { migrateDatabase } from '../../src/database/migrate';
import { copySqliteToPostgres } from '../../tools/ops/copy-to-postgres/copy-database';
import { resolveCopyKeys } from '../../tools/ops/copy-to-postgres/copy-keys';
import { verifyTarget, type VerificationReport } from '../../tools/ops/copy-to-postgres/target-verification';
import { SOLUTIONS } from '../fixtures/solutions';
import { bearer } from '../support/tenants';
import { startTestApp } from '../support/test-app';
import { scratchDatabase, type ScratchDatabase } from '../support/postgres';

/*
 * The upgrade path onto PostgreSQL: a database the previous release filled (test/fixtures/upgrade, the fixture of
 * test/upgrade.e2e-spec.ts) is upgraded by this release on SQLite, as a team's server would be, then moved to
 * PostgreSQL with the copy tool. Every episode reads and verifies there as it did on SQLite, under its sealed
 * pre-HMAC chain and the grader that scored it; the active ones continue; the old keys still authenticate.
 */

const FIXTURE = join(__dirname, '..', 'fixtures', 'upgrade');
const release = JSON.parse(readFileSync(join(FIXTURE, 'release-0.1.json'), 'utf8')) as {
  admin_key: string;
  keys: { alpha: string; beta: string };
  revoked_key_id: string;
  episodes: Record<string, string>;
};
const admin = { Authorization: `Bearer ${release.admin_key}` };
/** An hour after the previous release last wrote the fixture (its active episodes are not idle long enough to expire). */
const clock = () => new ManualClock(new Date(Date.parse('2026-11-30T05:17:05.509Z') + 3_600_000));

type App = Awaited<ReturnType<typeof startTestApp>>;
let target: ScratchDatabase;
let onPostgres: App;
let verification: VerificationReport;
let chainKey: string;
/** What the upgraded SQLite server answered for each episode, before the copy. */
const onSqlite = new Map<string, { detail: unknown; verify: unknown }>();

const answersOf = async (app: App, id: string) => ({
  detail: (await request(app.http).get(`/episodes/${id}`).set(admin).expect(200)).body,
  verify: (await request(app.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body,
});

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-upgrade-copy-'));
  const file = join(dir, 'release.db');
  const db = new BetterSqlite3(file);
  db.exec(readFileSync(join(FIXTURE, 'release-0.1.sql'), 'utf8'));
  db.close();
  migrateDatabase(`file:${file}`);

  // This release on the upgraded file, in open mode as the previous one ran: it keeps its chain key beside the file.
  const sqlite = await startTestApp(`file:${file}`, { ADMIN_API_KEY: release.admin_key }, { clock: clock() });
  await request(sqlite.http).post('/admin/ledger/enroll').set(admin).expect(200);
  for (const id of Object.values(release.episodes)) onSqlite.set(id, await answersOf(sqlite, id));
  await sqlite.app.close();

  target = await scratchDatabase('upgrade_copy');
  const keys = resolveCopyKeys(loadConfig({ DATABASE_URL: `file:${file}` }), file);
  chainKey = keys.current!;
  const targetCheckpointFile = join(dir, 'postgresql.ledger-checkpoints');
  await copySqliteToPostgres({ sourceFile: file, targetUrl: target.url, sourceCheckpointFile: `${file}.ledger-checkpoints`, targetCheckpointFile, keys });
  verification = await verifyTarget({ targetUrl: target.url, chainKey, checkpointFile: targetCheckpointFile, env: {}, concurrency: 2 });
  onPostgres = await startTestApp(target.url, { ADMIN_API_KEY: release.admin_key, CHAIN_KEY: chainKey, LEDGER_CHECKPOINT_FILE: targetCheckpointFile }, { clock: clock() });
});
afterAll(async () => {
  await onPostgres?.app.close();
  await target?.drop();
});

it("the copy tool's verification passes every episode and every tenant ledger", () => {
  expect(verification.ok).toBe(true);
  expect(verification.episodes).toEqual({ checked: Object.keys(release.episodes).length, failed: 0, failures: [] });
  expect(verification.ledgers.map((l) => [l.tenant, l.ledger_ok, l.checkpoint_ok]).sort()).toEqual([
    ['alpha', true, true],
    ['beta', true, true],
    ['public', true, true],
  ]);
});

it.each(Object.entries(release.episodes))('%s answers on PostgreSQL as on SQLite, and verifies under its sealed chain and first grader', async (_name, id) => {
  const answers = await answersOf(onPostgres, id);
  expect(answers).toEqual(onSqlite.get(id));
  expect(answers.verify).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true, chain_scheme: 'sha256-v1', grader_version: 1 });
});

it('the keys still authenticate, the revoked one still does not, and an idempotent step of that release still answers its retry', async () => {
  const id = release.episodes.alpha_done;
  const state = (await request(onPostgres.http).get(`/state/${id}`).set(bearer(release.keys.alpha)).expect(200)).body;
  const keys = (await request(onPostgres.http).get('/admin/tenants/alpha/keys').set(admin).expect(200)).body.keys;
  expect(keys.map((k: { id: string; revoked_at: string | null }) => [k.id === release.revoked_key_id, k.revoked_at === null]).sort()).toEqual([
    [false, true],
    [true, false],
  ]);
  const retried = await request(onPostgres.http).post('/step').set(bearer(release.keys.alpha)).send({ episode_id: id, action: state.actions[0].action, request_id: 'fixture-0' }).expect(200);
  expect(retried.body.info.step_count).toBe(1);
});

it.each([
  ['alpha_active', release.keys.alpha],
  ['beta_active', release.keys.beta],
  ['public_active', null],
])('%s continues to 1.0 on PostgreSQL and verifies, its old rows and its new ones', async (name, key) => {
  const id = release.episodes[name];
  const auth = key ? bearer(key) : {};
  const before = (await request(onPostgres.http).get(`/state/${id}`).set(auth).expect(200)).body;
  let last: { done: boolean; info: { score: number } } | undefined;
  for (const action of SOLUTIONS[before.task_id].actions.slice(before.step_count)) {
    last = (await request(onPostgres.http).post('/step').set(auth).send({ episode_id: id, action }).expect(200)).body;
  }
  expect(last).toMatchObject({ done: true, info: { score: 1 } });
  const report = (await request(onPostgres.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body;
  expect(report).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true, chain_scheme: 'sha256-v1', replayed_score: 1, grader_version: 1 });
});

it('new episodes on PostgreSQL are keyed with the same key, and every tenant ledger still verifies', async () => {
  const fresh = (await request(onPostgres.http).post('/reset').set(bearer(release.keys.beta)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
  const report = (await request(onPostgres.http).get(`/episodes/${fresh}/verify`).set(admin).expect(200)).body;
  expect(report).toMatchObject({ chain_ok: true, chain_scheme: 'hmac-sha256-v2', chain_key_id: (onSqlite.get(release.episodes.alpha_done)!.verify as { chain_key_id: string }).chain_key_id });
  const ledgers = (await request(onPostgres.http).get('/ledger/verify').set(admin).expect(200)).body.tenants;
  expect(ledgers.map((l: { tenant: string; ledger_ok: boolean }) => [l.tenant, l.ledger_ok]).sort()).toEqual([
    ['alpha', true],
    ['beta', true],
    ['public', true],
  ]);
});
