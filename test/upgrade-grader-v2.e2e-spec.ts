import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { migrateDatabase } from '../src/database/migrate';
import { freshDatabaseUrl, startTestApp } from './support/test-app';

/*
 * Episodes scored by grader version 2 before its code moved into src/engine/graders/v2 (test/fixtures/upgrade/
 * grader-v2.sql, written by the server at f7601c1 through its API) still verify: their replay under the version they
 * were scored with gives every stored reward, score, state and component column, whatever the current version is.
 */

const FIXTURE = join(__dirname, 'fixtures', 'upgrade');
const stored = JSON.parse(readFileSync(join(FIXTURE, 'grader-v2.json'), 'utf8')) as {
  chain_key: string;
  admin_key: string;
  episodes: Record<string, string>;
  scores: Record<string, number>;
};
const admin = { Authorization: `Bearer ${stored.admin_key}` };
let ctx: Awaited<ReturnType<typeof startTestApp>>;

beforeAll(async () => {
  const url = freshDatabaseUrl().replace('test.db', 'grader-v2.db');
  const db = new BetterSqlite3(url.slice('file:'.length));
  db.exec(readFileSync(join(FIXTURE, 'grader-v2.sql'), 'utf8'));
  db.close();
  migrateDatabase(url);
  // The chain key the fixture was written with: the chains and the ledger are keyed with it.
  ctx = await startTestApp(url, { CHAIN_KEY: stored.chain_key, ADMIN_API_KEY: stored.admin_key });
});
afterAll(() => ctx?.app.close());

it('holds finished and active episodes, with varied scores', () => {
  expect(Object.keys(stored.episodes).length).toBeGreaterThanOrEqual(20);
  expect(new Set(Object.values(stored.scores)).size).toBeGreaterThan(3);
});

it.each(Object.entries(stored.episodes))('%s verifies replay_ok under grader version 2, with its stored score', async (name, id) => {
  const report = (await request(ctx.http).get(`/episodes/${id}/verify`).set(admin).expect(200)).body;
  expect(report).toMatchObject({ replay_ok: true, chain_ok: true, ledger_ok: true, grader_version: 2, stored_score: stored.scores[name], replayed_score: stored.scores[name] });
});
