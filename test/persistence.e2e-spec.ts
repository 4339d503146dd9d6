import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import request from 'supertest';
import { reset, step } from '../src/engine/engine';
import type { Action } from '../src/engine/actions';
import { Database } from '../src/database/database.service';
import { canonicalTasks, parseTask } from '../src/tasks/task-files';
import { familyVersion, parseGeneratorVersion } from '../src/families';
import { SOLUTIONS } from './fixtures/solutions';
import { freshDatabaseUrl, startTestApp } from './support/test-app';
import { STORED_STATE_JSON } from '../src/episodes/active-state';
import { openDirect, testsRunOnPostgres, withDirect } from './support/direct-database';
import { until } from './support/stepping-clients';

const billing = SOLUTIONS.billing_duplicate_charge;


async function stepAll(http: any, episodeId: string, actions: Action[]) {
  const bodies = [];
  for (const action of actions) {
    bodies.push((await request(http).post('/step').send({ episode_id: episodeId, action }).expect(200)).body);
  }
  return bodies;
}

it('an episode started before a restart continues after it, with nothing lost', async () => {
  const databaseUrl = freshDatabaseUrl();
  const first = await startTestApp(databaseUrl);
  const id = (await request(first.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 11 }).expect(200)).body
    .episode_id;
  await stepAll(first.http, id, billing.actions.slice(0, 3));
  const before = (await request(first.http).get(`/state/${id}`).expect(200)).body;
  await first.app.close();

  const second = await startTestApp(databaseUrl);
  try {
    const after = (await request(second.http).get(`/state/${id}`).expect(200)).body;
    expect(after).toEqual(before);
    const rest = await stepAll(second.http, id, billing.actions.slice(3));
    expect(rest.at(-1).info.score).toBe(1);
    const final = (await request(second.http).get(`/state/${id}`).expect(200)).body;
    expect(final.actions.map((a: any) => a.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(final.actions.slice(0, 3)).toEqual(before.actions);
  } finally {
    await second.app.close();
  }
});

it('each step is stored atomically, and replaying the log reproduces the stored state and score bit for bit', async () => {
  const { app, http, databaseUrl } = await startTestApp();
  try {
    const ids: string[] = [];
    for (const [taskId, solution] of Object.entries(SOLUTIONS)) {
      const id = (await request(http).post('/reset').send({ variant: 'canonical', task_id: taskId }).expect(200)).body.episode_id;
      // a partial run with a wrong turn and an error in it, so the replay covers more than the happy path
      await stepAll(http, id, [{ type: 'send_reply', message: 'hi' }, ...solution.actions.slice(0, 3), { type: 'set_priority', priority: 'low' }]);
      ids.push(id);
    }
    const baseline = (await request(http).post('/baseline').send({}).expect(200)).body;
    const db = await openDirect(databaseUrl, { readonly: true });
    const episodes = await db.all<any>(`SELECT *, ${STORED_STATE_JSON} AS stored_state FROM episodes`);
    expect(episodes.length).toBe(ids.length + baseline.episodes.length);
    for (const episode of episodes) {
      const log = await db.all<any>('SELECT * FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?) ORDER BY step_index', [episode.id]);
      expect(log.map((row) => row.step_index)).toEqual(log.map((_, i) => i + 1));
      expect(log.length).toBe(episode.step_count);
      const content = (await db.get<any>('SELECT content_json FROM task_versions WHERE task_id = ? AND version = ?', [episode.task_id, episode.task_version])).content_json;
      // A task file's version holds the task; a generator's names the generator, which draws the instance from the seed.
      const generator = parseGeneratorVersion(episode.task_version);
      expect(generator === null ? 'file' : JSON.parse(content)).toEqual(generator === null ? 'file' : { generator: { family: episode.task_id, version: generator } });
      const task = generator === null ? parseTask('stored', JSON.parse(content)).task : familyVersion(episode.task_id, generator)!.generate(episode.seed);
      let state = reset(task, episode.seed);
      for (const row of log) {
        const result = step(task, state, JSON.parse(row.action_json));
        expect(result.reward_milli).toBe(row.reward_milli);
        expect(result.state.score_milli).toBe(row.score_after_milli);
        state = result.state;
      }
      expect(state.score_milli).toBe(episode.score_milli);
      // A running episode keeps its state; one that has ended keeps none (it is replayed from the log).
      expect(episode.stored_state === '' ? ['ended', state.status !== 'active'] : ['running', JSON.parse(episode.stored_state)]).toEqual(
        state.status === 'active' ? ['running', state] : ['ended', true],
      );
    }
    await db.close();
  } finally {
    await app.close();
  }
});

// Each database's own settings, on the connections the app uses.
if (testsRunOnPostgres()) it('runs every PostgreSQL statement under the configured statement timeout, on a pool of the configured size', async () => {
  const { app } = await startTestApp(undefined, { DATABASE_STATEMENT_TIMEOUT_MS: '4321', DATABASE_POOL_SIZE: '3' });
  try {
    const database = app.get(Database);
    const timeouts = await Promise.all([1, 2, 3].map(() => database.read((sql) => sql.get<{ statement_timeout: string }>('SHOW statement_timeout'))));
    expect(timeouts.map((row) => row?.statement_timeout)).toEqual(['4321ms', '4321ms', '4321ms']);
    const prisma = await database.serialized((db) => db.$queryRawUnsafe<{ statement_timeout: string }[]>('SHOW statement_timeout'));
    expect(prisma[0].statement_timeout).toBe('4321ms');
    // Four reads held at once on a pool of three: the fourth waits for a connection rather than opening one.
    const backends = new Set<number>();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reads = [1, 2, 3, 4].map(() => database.read(async (sql) => {
      backends.add((await sql.get<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!.pid);
      await held;
    }));
    await until(() => backends.size === 3);
    // A fourth connection, were the pool larger, would have come by now; a slow machine only makes this pass later.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(backends.size).toBe(3);
    release();
    await Promise.all(reads);
  } finally {
    await app.close();
  }
});

if (testsRunOnPostgres()) it('commits every step durably on PostgreSQL even where the database acknowledges commits before they are on disk', async () => {
  const databaseUrl = freshDatabaseUrl();
  const name = new URL(databaseUrl).pathname.slice(1);
  await withDirect(databaseUrl, (db) => db.exec(`ALTER DATABASE "${name}" SET synchronous_commit = off`));
  const { app, http } = await startTestApp(databaseUrl);
  // At each COMMIT the server sends, the setting that commit runs under, asked on the same connection.
  const atCommit: string[] = [];
  const query = PgClient.prototype.query as (this: PgClient, ...args: unknown[]) => Promise<{ rows: Array<Record<string, string>> }>;
  const spy = jest.spyOn(PgClient.prototype, 'query').mockImplementation(async function (this: PgClient, ...args: unknown[]) {
    if (args[0] === 'COMMIT') atCommit.push((await query.call(this, 'SHOW synchronous_commit')).rows[0].synchronous_commit);
    return query.apply(this, args);
  } as never);
  try {
    expect((await withDirect(databaseUrl, (db) => db.get<{ synchronous_commit: string }>('SHOW synchronous_commit')))!.synchronous_commit).toBe('off');
    const id = (await request(http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
    await stepAll(http, id, billing.actions.slice(0, 2));
    expect(atCommit.length).toBeGreaterThanOrEqual(3);
    expect(new Set(atCommit)).toEqual(new Set(['on']));
  } finally {
    spy.mockRestore();
    await app.close();
  }
});

if (!testsRunOnPostgres()) it('runs SQLite in WAL mode, with the configured synchronous level and busy timeout on its connection', async () => {
  for (const [level, expected] of [['FULL', 2], ['NORMAL', 1]] as const) {
    const { app, databaseUrl } = await startTestApp(undefined, { SQLITE_SYNCHRONOUS: level, SQLITE_BUSY_TIMEOUT_MS: '4321' });
    const pragmas = await app.get(Database).serialized(async (db) => ({
      synchronous: await db.$queryRawUnsafe<{ synchronous: bigint }[]>('PRAGMA synchronous'),
      timeout: await db.$queryRawUnsafe<{ timeout: bigint }[]>('PRAGMA busy_timeout'),
      foreignKeys: await db.$queryRawUnsafe<{ foreign_keys: bigint }[]>('PRAGMA foreign_keys'),
    }));
    expect(Number(pragmas.synchronous[0].synchronous)).toBe(expected);
    expect(Number(pragmas.timeout[0].timeout)).toBe(4321);
    expect(Number(pragmas.foreignKeys[0].foreign_keys)).toBe(1);
    await app.close();
    expect(await withDirect(databaseUrl, (db) => db.get('PRAGMA journal_mode'), { readonly: true })).toEqual({ journal_mode: 'wal' });
  }
});

it('concurrent steps on one episode are applied one at a time, each logged once, in order', async () => {
  const { app, http, databaseUrl } = await startTestApp();
  try {
    const id = (await request(http).post('/reset').send({ variant: 'canonical', task_id: 'logistics_missing_order_vip', seed: 2 }).expect(200)).body.episode_id;
    const queries = Array.from({ length: 12 }, (_, i) => `carrier delivery ${i}`);
    const responses = await Promise.all(
      queries.map((query) => request(http).post('/step').send({ episode_id: id, action: { type: 'search_policy', query } })),
    );
    expect(responses.map((r) => r.status)).toEqual(queries.map(() => 200));
    expect(responses.map((r) => r.body.observation.step_count).sort((a, b) => a - b)).toEqual(queries.map((_, i) => i + 1));
    const log = await withDirect(databaseUrl, (db) =>
      db.all<{ step_index: number }>('SELECT step_index FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?) ORDER BY step_index', [id]),
    );
    expect(log.map((r) => r.step_index)).toEqual(queries.map((_, i) => i + 1));
  } finally {
    await app.close();
  }
});

it('an episode keeps the task version it started on after the task file changes', async () => {
  const tasksDir = mkdtempSync(join(tmpdir(), 'tasks-'));
  for (const { task } of canonicalTasks()) writeFileSync(join(tasksDir, `${task.id}.json`), JSON.stringify(task));
  const databaseUrl = freshDatabaseUrl();
  const first = await startTestApp(databaseUrl, { TASKS_DIR: tasksDir });
  const started = (await request(first.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 4 }).expect(200)).body;
  await stepAll(first.http, started.episode_id, billing.actions.slice(0, 2));
  await first.app.close();

  // The task changes: the correct priority is now "urgent" and the instruction is reworded.
  const file = join(tasksDir, 'billing_duplicate_charge.json');
  const task = JSON.parse(readFileSync(file, 'utf8'));
  task.instruction = `${task.instruction} (revised)`;
  task.answer_key.priority = 'urgent';
  writeFileSync(file, JSON.stringify(task));

  const second = await startTestApp(databaseUrl, { TASKS_DIR: tasksDir });
  try {
    const fresh = (await request(second.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 4 }).expect(200)).body;
    expect(fresh.info.task_version).not.toBe(started.info.task_version);
    expect(fresh.observation.instruction).toMatch(/\(revised\)$/);

    const rest = await stepAll(second.http, started.episode_id, billing.actions.slice(2));
    expect(rest.at(-1).observation.instruction).toBe(started.observation.instruction);
    expect(rest.at(-1).info.score).toBe(1); // graded by the old key, where "high" is right
    const state = (await request(second.http).get(`/state/${started.episode_id}`).expect(200)).body;
    expect(state.task_version).toBe(started.info.task_version);
  } finally {
    await second.app.close();
  }
});
