import { canonicalJson, sha256Hex } from '../../src/common/canonical-json';
import { SystemClock } from '../../src/common/clock';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { PostgresDatabase } from '../../src/database/postgres-database';
import { migratePostgres } from '../../src/database/postgres-migrate';
import type { Action } from '../../src/engine/actions';
import { reset } from '../../src/engine/engine';
import { grade } from '../../src/engine/grader';
import { ChainKeys } from '../../src/episodes/chain-keys';
import { StaleEpisodeError, type EpisodeRecord } from '../../src/episodes/episode.repository';
import { SqliteEpisodeRepository } from '../../src/episodes/sqlite-episode.repository';
import { SOLUTIONS } from '../fixtures/solutions';
import { stepped, taskCatalogInMemory } from '../medium/task-catalog';
import { scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';

/*
 * The episode repository, the step hot path's storage, on a real PostgreSQL database: the same repository code and
 * statements as on SQLite, through PostgresDatabase. Two "server processes" are two PostgresDatabase instances, each
 * with its own pool, group commit and active-episode cache, sharing the database.
 */

const actions = SOLUTIONS.billing_duplicate_charge.actions;
let db: ScratchDatabase;
let config: AppConfig;
const opened: PostgresDatabase[] = [];

beforeEach(async () => {
  db = await scratchDatabase('episodes');
  await migratePostgres({ connectionString: db.url });
  const { catalog } = await taskCatalogInMemory();
  const { task, version } = catalog.latest('billing_duplicate_charge');
  await withClient(db.url, async (client) => {
    await client.query(`INSERT INTO tenants (id, slug, name) VALUES ('lab', 'lab', 'Lab')`);
    await client.query(`INSERT INTO task_versions (task_id, version, content_json) VALUES ($1, $2, '{}')`, [task.id, version]);
  });
  config = { ...loadConfig({ LOG_LEVEL: 'silent', CHAIN_KEY: 'k'.repeat(32) }), databaseUrl: db.url, databaseKind: 'postgresql' };
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((database) => database.onApplicationShutdown()));
  await db.drop();
});

/** One server process's view of the database: its own connections, group commit and cache. */
async function serverProcess(): Promise<SqliteEpisodeRepository> {
  const database = new PostgresDatabase(config);
  await database.onModuleInit();
  opened.push(database);
  return new SqliteEpisodeRepository(database, new ChainKeys(config), config, new SystemClock(), (await taskCatalogInMemory()).catalog);
}

async function newEpisode(repository: SqliteEpisodeRepository, id: string): Promise<EpisodeRecord> {
  const { catalog } = await taskCatalogInMemory();
  const { task, version } = catalog.latest('billing_duplicate_charge');
  const state = reset(task, 1);
  const episode = { id, apiKeyId: null, idSpace: 'tenant' as const, taskId: task.id, taskVersion: version, feedback: 'dense' as const, seed: 1 };
  return repository.create('lab', { ...episode, splitSource: 'public', splitKeyId: null, agent: null, runLabel: null, tags: ['pg'], state, grade: grade(task, state), cell: null }, 0);
}


/** A step as the service takes it: from the copy findForStep gives, again from the row when that copy was stale. */
async function stepOnce(repository: SqliteEpisodeRepository, id: string, action: (from: EpisodeRecord) => Action): Promise<void> {
  for (;;) {
    const from = (await repository.findForStep('lab', id))!;
    try {
      await repository.saveStep(from, await stepped(from, action(from)), null);
      return;
    } catch (error) {
      if (!(error instanceof StaleEpisodeError)) throw error;
    }
  }
}

it('creates, steps and reads an episode, with its request id, as on SQLite', async () => {
  const repository = await serverProcess();
  const created = await newEpisode(repository, 'ep-1');
  expect(created).toMatchObject({ id: 'ep-1', version: 0, status: 'active', tags: ['pg'] });
  await expect(newEpisode(repository, 'ep-1')).rejects.toThrow(/already exists/);
  const from = (await repository.findForStep('lab', 'ep-1'))!;
  const hash = sha256Hex(canonicalJson(actions[0]));
  await repository.saveStep(from, await stepped(from, actions[0]), { requestId: 'r-1', actionHash: hash });
  expect(await repository.findStepRequest('lab', 'ep-1', 'r-1')).toEqual({ actionHash: hash, responseJson: '{"step":1}' });
  const read = (await repository.find('lab', 'ep-1'))!;
  expect([read.version, read.state.step_count]).toEqual([1, 1]);
  expect(read.createdAt).toEqual(created.createdAt);
  const log = await repository.listActions('lab', 'ep-1');
  expect(log.map((entry) => [entry.stepIndex, entry.actionJson])).toEqual([[1, canonicalJson(actions[0])]]);
  expect(await repository.find('other-lab', 'ep-1')).toBeNull();
});

it("a copy another process advanced is never served, and a step computed from it writes nothing", async () => {
  const [first, second] = [await serverProcess(), await serverProcess()];
  await newEpisode(first, 'ep-1');
  await stepOnce(first, 'ep-1', () => actions[0]);
  const cachedByFirst = (await first.findForStep('lab', 'ep-1'))!;
  await stepOnce(second, 'ep-1', () => actions[1]);
  // A read checks the row's version, so the first process sees the second's step.
  expect((await first.find('lab', 'ep-1'))!.state.step_count).toBe(2);
  await expect(first.saveStep(cachedByFirst, await stepped(cachedByFirst, actions[1]), null)).rejects.toBeInstanceOf(StaleEpisodeError);
  await stepOnce(first, 'ep-1', () => actions[2]);
  expect((await second.find('lab', 'ep-1'))!.state.step_count).toBe(3);
});

it('two processes stepping the same episodes at once lose no step, and the tenant ledger stays one unbroken sequence', async () => {
  const processes = [await serverProcess(), await serverProcess()];
  const ids = ['ep-a', 'ep-b', 'ep-c'];
  for (const id of ids) await newEpisode(processes[0], id);
  // Each process takes 3 steps of each episode, all at once: 6 steps per episode, whatever the interleaving.
  const stepsEach = 3;
  await Promise.all(
    processes.flatMap((repository) => ids.map(async (id) => {
      for (let i = 0; i < stepsEach; i++) await stepOnce(repository, id, () => actions[0]);
    })),
  );
  const rows = await withClient(db.url, async (client) => {
    const episodes = await client.query(`SELECT id, step_count, version FROM episodes ORDER BY id`);
    const log = await client.query(`SELECT e.id, array_agg(a.step_index ORDER BY a.step_index) AS steps FROM action_log a JOIN episodes e ON e.serial = a.episode_serial GROUP BY e.id ORDER BY e.id`);
    const seqs = await client.query(`SELECT seq FROM ledger_entries UNION ALL SELECT ledger_seq FROM action_log UNION ALL SELECT ledger_seq FROM episodes ORDER BY 1`);
    return { episodes: episodes.rows, log: log.rows, seqs: seqs.rows.map((row) => Number(row.seq)) };
  });
  const total = 2 * stepsEach;
  expect(rows.episodes).toEqual(ids.map((id) => ({ id, step_count: total, version: total })));
  expect(rows.log).toEqual(ids.map((id) => ({ id, steps: Array.from({ length: total }, (_, i) => i + 1) })));
  // Every entry (3 creations, 18 steps) has its own place in the tenant's sequence, with none missing.
  expect(rows.seqs).toEqual(Array.from({ length: ids.length * (1 + total) }, (_, i) => i + 1));
});
