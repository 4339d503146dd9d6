import request from 'supertest';
import { ManualClock } from '../src/common/clock';
import { reset, step } from '../src/engine/engine';
import type { GraderVersion } from '../src/engine/grader-version';
import type { Action } from '../src/engine/actions';
import { EpisodeExpiryService } from '../src/episodes/episode-expiry.service';
import { TaskCatalog } from '../src/tasks/task-catalog.service';
import { SOLUTIONS } from './fixtures/solutions';
import { freshDatabaseUrl, startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';
import { STORED_STATE_JSON } from '../src/episodes/active-state';

/*
 * Finished episodes keep no state snapshot (src/episodes/finished-state.ts): an episode that ended, by its last
 * step or by the idle sweep, stores "" and is replayed from its log when read. Every read answers exactly what it
 * answered when the snapshot was stored, as the release before this one stored it, which this test writes back.
 */

const billing = SOLUTIONS.billing_duplicate_charge.actions;
type App = Awaited<ReturnType<typeof startTestApp>>;

const snapshotOf = (app: App, id: string): Promise<string> =>
  withDirect(app.databaseUrl, async (db) => (await db.get<{ state_json: string }>(`SELECT ${STORED_STATE_JSON} AS state_json FROM episodes WHERE id = ?`, [id]))!.state_json, {
    readonly: true,
  });

async function play(app: App, actions: object[], body: object = {}): Promise<string> {
  const id = (await request(app.http).post('/reset').send({ task_id: 'billing_duplicate_charge', ...body }).expect(200)).body.episode_id;
  for (const action of actions) await request(app.http).post('/step').send({ episode_id: id, action }).expect(200);
  return id;
}

/** Every read of an episode that goes through its state. */
async function reads(app: App, id: string) {
  const get = async (path: string) => (await request(app.http).get(path).expect(200)).body;
  return {
    state: await get(`/state/${id}`),
    grade: (await request(app.http).post('/grader').send({ episode_id: id }).expect(200)).body,
    detail: await get(`/episodes/${id}`),
    verify: await get(`/episodes/${id}/verify`),
  };
}

/** Writes back the snapshot the release before this one kept for an episode: its actions replayed, as JSON. */
async function storeSnapshotAsBefore(app: App, id: string): Promise<void> {
  await withDirect(app.databaseUrl, async (db) => {
    const row = (await db.get<{ task_id: string; task_version: string; seed: number; grader_version: number }>(
      'SELECT task_id, task_version, seed, grader_version FROM episodes WHERE id = ?',
      [id],
    ))!;
    const task = await app.app.get(TaskCatalog).fetchInstance(row.task_id, row.task_version, row.seed, null);
    let state = reset(task, row.seed, row.grader_version as GraderVersion);
    const log = await db.all<{ action_json: string }>('SELECT action_json FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?) ORDER BY step_index', [id]);
    for (const { action_json } of log) state = step(task, state, JSON.parse(action_json) as Action).state;
    await db.run('UPDATE episodes SET state_json = ? WHERE id = ?', [JSON.stringify(state), id]);
  });
}

it('an episode keeps its snapshot while it runs and none once it ends; every read answers the same in both forms', async () => {
  const clock = new ManualClock('2026-12-01T09:00:00Z');
  const app = await startTestApp(freshDatabaseUrl(), {}, { clock });
  try {
    const solved = await play(app, billing, { variant: 'canonical' });
    const drawn = await play(app, billing.slice(0, 3), { seed: 7 });
    const running = await play(app, billing.slice(0, 2), { variant: 'canonical' });
    expect(JSON.parse(await snapshotOf(app, running))).toMatchObject({ status: 'active', step_count: 2 });
    expect(await snapshotOf(app, solved)).toBe('');
    // The idle sweep ends the drawn one (three steps in, still active): it keeps no snapshot either.
    clock.advance(25 * 3_600_000);
    await play(app, billing.slice(0, 1));
    await app.app.get(EpisodeExpiryService).sweep();
    expect(await snapshotOf(app, drawn)).toBe('');

    for (const id of [solved, drawn]) {
      const replayed = await reads(app, id);
      expect(replayed.verify).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
      await storeSnapshotAsBefore(app, id);
      expect(await snapshotOf(app, id)).not.toBe('');
      expect(await reads(app, id)).toEqual(replayed);
    }
    const solvedState = (await request(app.http).get(`/state/${solved}`).expect(200)).body;
    expect(solvedState).toMatchObject({ done: true, score: 1, step_count: billing.length });
    // A step on an ended episode is still refused as such.
    await request(app.http).post('/step').send({ episode_id: solved, action: billing[0] }).expect(409);
  } finally {
    await app.app.close();
  }
});
