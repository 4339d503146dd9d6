import request from 'supertest';
import { EpisodeExpiryService } from '../src/episodes/episode-expiry.service';
import { SOLUTIONS } from './fixtures/solutions';
import { startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';

/**
 * A step starts from the server's in-memory copy of the episode when it has one, and writes only if the row is
 * still at that copy's version. These tests move the row on behind the server's back — another process on the
 * same database file — and check that the stale copy is never written back.
 */
const actions = SOLUTIONS.logistics_missing_order_vip.actions;


it('two servers on one database file stepping the same episode in turns: every step builds on the last stored one', async () => {
  const a = await startTestApp();
  const b = await startTestApp(a.databaseUrl);
  try {
    const id = (await request(a.http).post('/reset').send({ variant: 'canonical', task_id: 'logistics_missing_order_vip', seed: 4 }).expect(200)).body.episode_id;
    // A holds the episode in memory from the reset; each turn of B moves the row on behind A's copy.
    for (const [i, action] of actions.entries()) {
      const server = i % 2 === 0 ? a : b;
      const res = await request(server.http).post('/step').send({ episode_id: id, action }).expect(200);
      expect(res.body.info.step_count).toBe(i + 1);
    }
    const state = (await request(b.http).get(`/state/${id}`).expect(200)).body;
    expect(state.actions.map((row: { step: number }) => row.step)).toEqual(actions.map((_, i) => i + 1));
    expect(state.score).toBe(1);
    // The chain and the replay agree with what was stored: no step was computed from a stale copy.
    const verdict = (await request(a.http).get(`/episodes/${id}/verify`).expect(200)).body;
    expect(verdict).toMatchObject({ chain_ok: true, replay_ok: true, stored_score: 1, replayed_score: 1 });
  } finally {
    await b.app.close();
    await a.app.close();
  }
});

it('an episode expired by another writer is not revived by a step from the cached copy: 409, nothing written', async () => {
  const ctx = await startTestApp();
  try {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'logistics_missing_order_vip', seed: 5 }).expect(200)).body.episode_id;
    await request(ctx.http).post('/step').send({ episode_id: id, action: actions[0] }).expect(200);
    // What the idle sweep of another server process does (it moves the version on, as every writer must).
    await withDirect(ctx.databaseUrl, (other) => other.run("UPDATE episodes SET status = 'expired', version = version + 1 WHERE id = ?", [id]));

    const res = await request(ctx.http).post('/step').send({ episode_id: id, action: actions[1] }).expect(409);
    expect(res.body.message).toMatch(/is expired/);
    await withDirect(ctx.databaseUrl, async (db) => {
      expect(await db.get('SELECT COUNT(*) AS n FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)', [id])).toEqual({ n: 1 });
      expect(await db.get('SELECT status, step_count FROM episodes WHERE id = ?', [id])).toEqual({ status: 'expired', step_count: 1 });
    });
  } finally {
    await ctx.app.close();
  }
});

it('the idle sweep moves the version on, so a copy cached before it cannot be written back', async () => {
  const ctx = await startTestApp(undefined, { EPISODE_IDLE_TIMEOUT_MINUTES: '1' });
  try {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'logistics_missing_order_vip', seed: 6 }).expect(200)).body.episode_id;
    await request(ctx.http).post('/step').send({ episode_id: id, action: actions[0] }).expect(200);
    expect(await ctx.app.get(EpisodeExpiryService).sweep(new Date(Date.now() + 2 * 60_000))).toBe(1);
    const res = await request(ctx.http).post('/step').send({ episode_id: id, action: actions[1] }).expect(409);
    expect(res.body.message).toMatch(/is expired/);
  } finally {
    await ctx.app.close();
  }
});
