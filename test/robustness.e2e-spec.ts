import { connect, type AddressInfo } from 'node:net';
import request from 'supertest';
import type { Action } from '../src/engine/actions';
import { reset, step } from '../src/engine/engine';
import { EpisodeExpiryService } from '../src/episodes/episode-expiry.service';
import { canonicalTasks } from '../src/tasks/task-files';
import { SOLUTIONS } from './fixtures/solutions';
import { startTestApp } from './support/test-app';
import { openDirect, testsRunOnPostgres } from './support/direct-database';
import { STORED_STATE_JSON } from '../src/episodes/active-state';

const billing = SOLUTIONS.billing_duplicate_charge.actions;

describe('idempotent steps (request_id)', () => {
  let ctx: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx.app.close());

  it('a retried request returns the original response and applies nothing', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 1 }).expect(200)).body.episode_id;
    const first = await request(ctx.http).post('/step').send({ episode_id: id, request_id: 'r-1', action: billing[0] }).expect(200);
    await request(ctx.http).post('/step').send({ episode_id: id, request_id: 'r-2', action: billing[1] }).expect(200);
    const retry = await request(ctx.http).post('/step').send({ episode_id: id, request_id: 'r-1', action: billing[0] }).expect(200);
    expect(retry.body).toEqual(first.body);
    const state = (await request(ctx.http).get(`/state/${id}`).expect(200)).body;
    expect(state.step_count).toBe(2);
  });

  it('concurrent duplicates of one request apply it once', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 1 }).expect(200)).body.episode_id;
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => request(ctx.http).post('/step').send({ episode_id: id, request_id: 'same', action: billing[0] })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect((await request(ctx.http).get(`/state/${id}`).expect(200)).body.step_count).toBe(1);
  });

  it('the same request_id with a different action is a 409, and a retry of the final step still answers 200', async () => {
    const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: 'billing_duplicate_charge', seed: 1 }).expect(200)).body.episode_id;
    await request(ctx.http).post('/step').send({ episode_id: id, request_id: 'a', action: billing[0] }).expect(200);
    const clash = await request(ctx.http).post('/step').send({ episode_id: id, request_id: 'a', action: billing[1] }).expect(409);
    expect(clash.body.message).toMatch(/already used .* different action/);
    const final = { type: 'resolve_ticket', resolution: 'no_action_needed' };
    const done = await request(ctx.http).post('/step').send({ episode_id: id, request_id: 'z', action: final }).expect(200);
    expect(done.body.done).toBe(true);
    const again = await request(ctx.http).post('/step').send({ episode_id: id, request_id: 'z', action: final }).expect(200);
    expect(again.body).toEqual(done.body);
    await request(ctx.http).post('/step').send({ episode_id: id, action: final }).expect(409);
  });
});

describe('concurrent episodes', () => {
  it('many episodes stepped in parallel give exactly the results of a sequential run', async () => {
    const ctx = await startTestApp();
    try {
      const tasks = new Map(canonicalTasks().map((e) => [e.task.id, e.task]));
      const plans = Array.from({ length: 24 }, (_, i) => {
        const taskId = Object.keys(SOLUTIONS)[i % 3];
        const actions = SOLUTIONS[taskId].actions;
        // vary the trajectories: some complete, some stop early, some take a wrong turn
        const trajectory: Action[] = i % 4 === 3 ? [actions[0], { type: 'set_priority', priority: 'low' }, ...actions.slice(2)] : actions.slice(0, 2 + (i % 5));
        return { taskId, seed: 1000 + i, trajectory };
      });
      const results = await Promise.all(
        plans.map(async ({ taskId, seed, trajectory }) => {
          const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical', task_id: taskId, seed }).expect(200)).body.episode_id;
          const rewards: number[] = [];
          for (const action of trajectory) {
            rewards.push((await request(ctx.http).post('/step').send({ episode_id: id, action }).expect(200)).body.reward);
          }
          return { id, rewards };
        }),
      );
      const db = await openDirect(ctx.databaseUrl, { readonly: true });
      for (const [i, { taskId, seed, trajectory }] of plans.entries()) {
        const task = tasks.get(taskId)!;
        let state = reset(task, seed);
        const rewards: number[] = [];
        for (const action of trajectory) {
          const result = step(task, state, action);
          rewards.push(result.reward_milli / 1000);
          state = result.state;
        }
        expect(results[i].rewards).toEqual(rewards);
        const stored = (await db.get<{ state_json: string }>(`SELECT ${STORED_STATE_JSON} AS state_json FROM episodes WHERE id = ?`, [results[i].id]))!;
        // A running episode keeps its state; one that has ended keeps none (it is replayed from the log).
        expect(stored.state_json === '' ? ['ended', state.status !== 'active'] : ['running', JSON.parse(stored.state_json)]).toEqual(
          state.status === 'active' ? ['running', state] : ['ended', true],
        );
      }
      await db.close();
    } finally {
      await ctx.app.close();
    }
  });
});

describe('limits and lifecycle', () => {
  it('configured reply and query limits are enforced with 422 and shown in the action schema', async () => {
    const ctx = await startTestApp(undefined, { MAX_MESSAGE_LENGTH: '50', MAX_QUERY_LENGTH: '20' });
    try {
      const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
      await request(ctx.http).post('/step').send({ episode_id: id, action: billing[0] }).expect(200);
      const long = await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'send_reply', message: 'x'.repeat(51) } }).expect(422);
      expect(long.body.details).toEqual([{ field: 'action.message', message: 'message must be at most 50 characters' }]);
      await request(ctx.http).post('/step').send({ episode_id: id, action: { type: 'search_policy', query: 'q'.repeat(21) } }).expect(422);
      expect((await request(ctx.http).get(`/state/${id}`).expect(200)).body.step_count).toBe(1);
      const schema = (await request(ctx.http).get('/action_schema').expect(200)).body;
      expect(schema.$defs.SendReplyAction.properties.message.maxLength).toBe(50);
      expect(schema.$defs.SearchPolicyAction.properties.query.maxLength).toBe(20);
      const baseline = await request(ctx.http).post('/baseline').send({ task_ids: ['billing_duplicate_charge'] }).expect(200);
      expect(baseline.body.episodes[0].steps).toBeGreaterThan(0);
    } finally {
      await ctx.app.close();
    }
  });

  it('a tenant cannot hold more active episodes than the cap (429); finished ones free a place', async () => {
    const ctx = await startTestApp(undefined, { MAX_ACTIVE_EPISODES_PER_TENANT: '2' });
    try {
      const first = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
      await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
      const refused = await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(429);
      expect(refused.body.message).toMatch(/2 active episodes, the most allowed \(2\)/);
      await request(ctx.http).post('/step').send({ episode_id: first, action: billing[0] }).expect(200);
      await request(ctx.http).post('/step').send({ episode_id: first, action: { type: 'resolve_ticket', resolution: 'no_action_needed' } }).expect(200);
      await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200);
    } finally {
      await ctx.app.close();
    }
  });

  it('idle episodes expire: kept and auditable, no longer steppable, no longer counted as active', async () => {
    const ctx = await startTestApp(undefined, { EPISODE_IDLE_TIMEOUT_MINUTES: '30', MAX_ACTIVE_EPISODES_PER_TENANT: '1' });
    try {
      const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
      await request(ctx.http).post('/step').send({ episode_id: id, action: billing[0] }).expect(200);
      const sweeper = ctx.app.get(EpisodeExpiryService);
      expect(await sweeper.sweep(new Date(Date.now() + 29 * 60_000))).toBe(0);
      expect(await sweeper.sweep(new Date(Date.now() + 31 * 60_000))).toBe(1);
      const state = (await request(ctx.http).get(`/state/${id}`).expect(200)).body;
      expect(state).toMatchObject({ status: 'expired', step_count: 1 });
      const stepped = await request(ctx.http).post('/step').send({ episode_id: id, action: billing[1] }).expect(409);
      expect(stepped.body.message).toMatch(/is expired/);
      expect((await request(ctx.http).get('/episodes').query({ status: 'expired' }).expect(200)).body.items).toHaveLength(1);
      expect((await request(ctx.http).get(`/episodes/${id}/verify`).expect(200)).body).toMatchObject({ chain_ok: true, replay_ok: true });
      await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200); // the cap of 1 is free again
    } finally {
      await ctx.app.close();
    }
  });

  it('a client that goes quiet in the middle of its request headers is cut off by the server', async () => {
    const ctx = await startTestApp(undefined, { REQUEST_TIMEOUT_MS: '800', HEADERS_TIMEOUT_MS: '400' });
    await ctx.app.listen(0, '127.0.0.1');
    try {
      const { port } = ctx.app.getHttpServer().address() as AddressInfo;
      const started = Date.now();
      const closedAfter = await new Promise<number>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write('POST /step HTTP/1.1\r\nHost: x\r\n'));
        socket.on('data', () => undefined);
        socket.on('close', () => resolve(Date.now() - started));
        socket.on('error', reject);
        setTimeout(() => reject(new Error('the server kept the slow connection open')), 10_000).unref();
      });
      expect(closedAfter).toBeLessThan(5_000);
    } finally {
      await ctx.app.close();
    }
  });
});

describe('database errors', () => {
  it('a database held busy past the timeout is a 503 with Retry-After that changes nothing; it works again after', async () => {
    // Another process holds the lock a step's write needs: SQLite's write lock past the busy timeout, or on
    // PostgreSQL a lock on the action log past the statement timeout.
    const ctx = await startTestApp(undefined, testsRunOnPostgres() ? { DATABASE_STATEMENT_TIMEOUT_MS: '200' } : { SQLITE_BUSY_TIMEOUT_MS: '200' });
    try {
      const id = (await request(ctx.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
      const other = await openDirect(ctx.databaseUrl);
      await other.exec(other.kind === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN; LOCK TABLE action_log IN EXCLUSIVE MODE');
      const res = await request(ctx.http).post('/step').send({ episode_id: id, action: billing[0] });
      await other.exec('ROLLBACK');
      await other.close();
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
      expect((await request(ctx.http).get(`/state/${id}`).expect(200)).body.step_count).toBe(0);
      await request(ctx.http).post('/step').send({ episode_id: id, action: billing[0] }).expect(200);
    } finally {
      await ctx.app.close();
    }
  });
});
