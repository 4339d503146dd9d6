import Database from 'better-sqlite3';
import request from 'supertest';
import { EpisodeRepository } from '../src/episodes/episode.repository';
import { SOLUTIONS } from './fixtures/solutions';
import { startTestApp } from './support/test-app';

/**
 * The version check behind the serialized path: if the episode row changes between the read and the write of a
 * step (another process writing the same file), the write matches no row, the whole step is rolled back, and
 * the client gets 409 instead of a lost update.
 */
it('a step computed from a stale read is refused with 409 and writes nothing', async () => {
  const ctx = await startTestApp();
  try {
    const id = (await request(ctx.http).post('/reset').send({ task_id: 'billing_duplicate_charge', seed: 2 }).expect(200)).body.episode_id;
    const repository = ctx.app.get(EpisodeRepository);
    const original = repository.applyStep.bind(repository);
    jest.spyOn(repository, 'applyStep').mockImplementationOnce((tenantId, episodeId, key, decide) =>
      original(tenantId, episodeId, key, (episode) => {
        // Between this step's read and its write, another writer bumps the version (better-sqlite3 is synchronous).
        const other = new Database(ctx.databaseUrl.slice('file:'.length));
        other.prepare('UPDATE episodes SET version = version + 1 WHERE id = ?').run(episodeId);
        other.close();
        return decide(episode);
      }),
    );
    const res = await request(ctx.http).post('/step').send({ episode_id: id, action: SOLUTIONS.billing_duplicate_charge.actions[0] }).expect(409);
    expect(res.body.message).toMatch(/changed while this step was applied/);
    const db = new Database(ctx.databaseUrl.slice('file:'.length), { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n FROM action_log WHERE episode_id = ?').get(id)).toEqual({ n: 0 });
    expect(db.prepare('SELECT step_count FROM episodes WHERE id = ?').get(id)).toEqual({ step_count: 0 });
    db.close();
    // Nothing is left half-done: the next step applies normally.
    await request(ctx.http).post('/step').send({ episode_id: id, action: SOLUTIONS.billing_duplicate_charge.actions[0] }).expect(200);
  } finally {
    await ctx.app.close();
  }
});
