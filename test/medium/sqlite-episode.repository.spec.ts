import BetterSqlite3 from 'better-sqlite3';
import { canonicalJson, sha256Hex } from '../../src/common/canonical-json';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { Database } from '../../src/database/database.service';
import { SqliteDatabase } from '../../src/database/sqlite-database';
import { reset } from '../../src/engine/engine';
import { grade } from '../../src/engine/grader';
import type { Action } from '../../src/engine/actions';
import { StaleEpisodeError, type EpisodeRecord, type StepRequestKey } from '../../src/episodes/episode.repository';
import { ChainKeys } from '../../src/episodes/chain-keys';
import { SqliteEpisodeRepository } from '../../src/episodes/sqlite-episode.repository';
import { SOLUTIONS } from '../fixtures/solutions';
import { freshDatabaseUrl } from '../support/test-app';
import { stepped, taskCatalogInMemory } from './task-catalog';
import { SystemClock } from '../../src/common/clock';
import { STORED_STATE_JSON } from '../../src/episodes/active-state';

/*
 * The middle tier: the SQLite episode repository alone, on a real freshly migrated file, with a second
 * connection playing "another writer" (another server process, the idle sweep).
 */

const actions = SOLUTIONS.billing_duplicate_charge.actions;
let config: AppConfig;
let database: Database;
let repository: SqliteEpisodeRepository;
let other: BetterSqlite3.Database;

beforeEach(async () => {
  const url = freshDatabaseUrl();
  config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', SQLITE_BUSY_TIMEOUT_MS: '50' });
  database = new SqliteDatabase(config);
  await database.onModuleInit();
  repository = new SqliteEpisodeRepository(database, new ChainKeys(config), config, new SystemClock(), (await taskCatalogInMemory()).catalog);
  other = new BetterSqlite3(url.slice('file:'.length), { timeout: 50 });
  other.prepare("INSERT INTO tenants (id, slug, name, created_at) VALUES ('lab', 'lab', 'Lab', 1795996800000)").run();
});
afterEach(async () => {
  other.close();
  await database.onApplicationShutdown();
});

async function newEpisode(id = 'ep-1'): Promise<EpisodeRecord> {
  const { catalog } = await taskCatalogInMemory();
  const { task, version } = catalog.latest('billing_duplicate_charge');
  // The task version row the episode refers to (foreign key).
  other.prepare('INSERT OR IGNORE INTO task_versions (task_id, version, content_json, synced_at) VALUES (?, ?, ?, ?)').run(task.id, version, '{}', 1795996800000);
  const state = reset(task, 1);
  return repository.create('lab', { id, apiKeyId: null, idSpace: 'tenant', taskId: task.id, taskVersion: version, feedback: 'dense', seed: 1, splitSource: 'public', splitKeyId: null, agent: null, runLabel: null, tags: [], state, grade: grade(task, state), cell: null }, 0);
}


/** Reads the episode as a step does and stores one step computed from it; returns the copy it started from. */
async function applyStep(action: Action, request: StepRequestKey | null = null, id = 'ep-1'): Promise<EpisodeRecord> {
  const from = (await repository.findForStep('lab', id))!;
  await repository.saveStep(from, await stepped(from, action), request);
  return from;
}

/** What another process does to a running episode: a change to its state (active_states) that moves the version on. */
function bumpFromOutside(id: string, path: string, value: number): void {
  other.prepare('UPDATE active_states SET state_json = json_set(state_json, ?, ?) WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)').run(path, value, id);
  other.prepare('UPDATE episodes SET version = version + 1 WHERE id = ?').run(id);
}

it('a read of an active episode is served from the cache while the row is unchanged, and re-read once it changed', async () => {
  await newEpisode();
  await applyStep(actions[0]);
  expect((await repository.find('lab', 'ep-1'))!.state.step_count).toBe(1);
  bumpFromOutside('ep-1', '$.step_count', 7);
  expect((await repository.find('lab', 'ep-1'))!.state.step_count).toBe(7);
  expect(await repository.find('other-lab', 'ep-1')).toBeNull();
});

it('a step computed from a stale cached copy writes nothing; the next read for a step is the row', async () => {
  await newEpisode();
  await applyStep(actions[0]);
  bumpFromOutside('ep-1', '$.max_steps', 50);
  const cached = (await repository.findForStep('lab', 'ep-1'))!;
  expect([cached.version, cached.state.max_steps]).toEqual([1, 12]);
  await expect(repository.saveStep(cached, await stepped(cached, actions[1]), null)).rejects.toBeInstanceOf(StaleEpisodeError);
  expect(other.prepare('SELECT COUNT(*) AS n FROM action_log').get()).toEqual({ n: 1 });
  const fresh = await applyStep(actions[1]);
  expect([fresh.version, fresh.state.max_steps]).toEqual([2, 50]);
  const stored = other.prepare(`SELECT version, step_count, ${STORED_STATE_JSON} AS state_json FROM episodes WHERE id = ?`).get('ep-1') as { version: number; step_count: number; state_json: string };
  expect([stored.version, stored.step_count, JSON.parse(stored.state_json).max_steps]).toEqual([3, 2, 50]);
});

it('a request id is stored with the step, with the hash and the response it was given, and found by the episode it was used on', async () => {
  await newEpisode();
  await newEpisode('ep-2');
  const hash = sha256Hex(canonicalJson(actions[0]));
  const from = await applyStep(actions[0], { requestId: 'r-1', actionHash: hash });
  expect(await repository.findStepRequest('lab', 'ep-1', 'r-1')).toEqual({ actionHash: hash, responseJson: '{"step":1}' });
  expect(await repository.findStepRequest('lab', 'ep-2', 'r-1')).toBeNull();
  expect(await repository.findStepRequest('other-lab', 'ep-1', 'r-1')).toBeNull();
  // The same step written again from the copy it was computed from is stale: the request is not stored twice.
  await expect(repository.saveStep(from, await stepped(from, actions[0]), { requestId: 'r-1', actionHash: hash })).rejects.toBeInstanceOf(StaleEpisodeError);
  expect(other.prepare('SELECT COUNT(*) AS n FROM step_requests').get()).toEqual({ n: 1 });
});

it('a batch that fails to commit is rolled back whole, and the states it cached are dropped', async () => {
  await newEpisode();
  await applyStep(actions[0]);
  const from = (await repository.findForStep('lab', 'ep-1'))!;
  const secondStep = await stepped(from, actions[1]);
  // A write in the same batch (submitted in the same turn of the event loop) that only fails at COMMIT (a deferred
  // foreign key), taking the step down with it.
  const sabotage = database.batched(async (sql) => {
    await sql.run('PRAGMA defer_foreign_keys = ON');
    await sql.run("INSERT INTO episode_tags (episode_id, tenant_id, tag) VALUES ('ghost', 'lab', 'x')");
  });
  const saved = repository.saveStep(from, secondStep, null);
  // (Matched by message: better-sqlite3's errors may come from another test file's realm under --runInBand.)
  await expect(sabotage).rejects.toMatchObject({ message: expect.stringMatching(/FOREIGN KEY/) });
  await expect(saved).rejects.toMatchObject({ message: expect.stringMatching(/FOREIGN KEY/) });
  expect(other.prepare('SELECT step_count, version FROM episodes WHERE id = ?').get('ep-1')).toEqual({ step_count: 1, version: 1 });
  // Another writer now moves the row to version 2, the number the lost step's cached copy would carry: only a
  // cache emptied by the rollback tells the two apart.
  bumpFromOutside('ep-1', '$.max_steps', 40);
  const read = (await repository.findForStep('lab', 'ep-1'))!;
  expect([read.version, read.state.step_count, read.state.max_steps]).toEqual([2, 1, 40]);
  await applyStep(actions[1]);
  expect(other.prepare('SELECT step_count, version FROM episodes WHERE id = ?').get('ep-1')).toEqual({ step_count: 2, version: 3 });
});

it('expiry marks idle active episodes of every tenant expired and moves their version on past any cached copy', async () => {
  await newEpisode('ep-1');
  await newEpisode('ep-2');
  const before = await applyStep(actions[0]);
  const cached = (await repository.findForStep('lab', 'ep-1'))!;
  expect(await repository.expireIdleEpisodesOfAllTenants(new Date(Date.now() + 60_000))).toBe(2);
  expect(await repository.find('lab', 'ep-1')).toMatchObject({ status: 'expired', version: 2 });
  expect(await repository.findForStep('lab', 'ep-1')).toMatchObject({ status: 'expired', version: 2 });
  // A step computed from the copy taken before the expiry cannot be written over it.
  await expect(repository.saveStep(cached, await stepped(cached, actions[1]), null)).rejects.toBeInstanceOf(StaleEpisodeError);
  expect(before.version).toBe(0);
  expect(await repository.expireIdleEpisodesOfAllTenants(new Date(Date.now() + 60_000))).toBe(0);
});

it('the active-episode cap is counted and enforced in the same write', async () => {
  await newEpisode('ep-1');
  const { catalog } = await taskCatalogInMemory();
  const { task, version } = catalog.latest('billing_duplicate_charge');
  const state = reset(task, 2);
  const attempt = (id: string) => repository.create('lab', { id, apiKeyId: null, idSpace: 'tenant', taskId: task.id, taskVersion: version, feedback: 'dense', seed: 2, splitSource: 'public', splitKeyId: null, agent: null, runLabel: null, tags: [], state, grade: grade(task, state), cell: null }, 2);
  const results = await Promise.allSettled([attempt('ep-2'), attempt('ep-3')]);
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
  await expect(attempt('ep-1')).rejects.toThrow(/active episodes/);
});
