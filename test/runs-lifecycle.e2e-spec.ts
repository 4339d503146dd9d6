import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { ManualClock } from '../src/common/clock';
import type { Action } from '../src/engine/actions';
import { reset, step } from '../src/engine/engine';
import { grade } from '../src/engine/grader';
import { EpisodeExpiryService } from '../src/episodes/episode-expiry.service';
import { latestFamily, nthSeedOf } from '../src/families';
import { drawnFixtures } from '../tools/validity/drawn-suite';
import { referenceRun } from '../tools/validity/solvers';
import { readZip } from './fixtures/inspect/read-zip';
import { ADMIN_KEY, CHAIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';
import { openWsClient } from './support/ws-client';

/*
 * A run's life beyond HTTP resets (docs/evaluating-agents.md): cells filled over /ws and OpenEnv sessions on /mcp
 * with nothing of a score shown to the agent key, idle attempts abandoned and filled again, paired comparisons,
 * the leaderboard, regrades under another grader version and the three exports.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let host: string;
let agent: string;
let reader: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
  await ctx.app.listen(0, '127.0.0.1');
  host = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  ({ key: agent, readerKey: reader } = await tenantWithKey(ctx.http, 'runs-life'));
});
afterAll(() => ctx.app.close());

const http = () => request(ctx.http);
const post = (path: string, key: string, body: object) => http().post(path).set(bearer(key)).send(body);
const get = (path: string, key: string) => http().get(path).set(bearer(key));

const BILLING = 'billing_duplicate_charge';
const FAMILIES = ['billing_duplicate_charge', 'security_compromised_account', 'logistics_missing_order_vip'];

function solution(taskId: string, seed: number): Action[] {
  return referenceRun(latestFamily(taskId)!.generate(seed), seed).actions;
}

/** A wrong attempt that still ends the episode: the ticket the solution resolves, resolved at once with nothing done. */
function wrong(cell: Cell): Action[] {
  const actions = solution(cell.task_id, cell.seed);
  const opened = actions.filter((action) => action.type === 'open_ticket').at(-1)!;
  return [opened, { type: 'resolve_ticket', resolution: 'no_action_needed' }];
}

type Cell = { task_id: string; seed: number; trial: number };

/** Fills every cell of a run over HTTP: the reference solution where `solves` says so, a wrong resolution elsewhere. */
async function fillAll(runId: string, solves: (cell: Cell) => boolean, actionsFor?: (cell: Cell) => Action[]): Promise<void> {
  for (;;) {
    const started = await post('/reset', agent, { run_id: runId });
    if (started.status === 409) return;
    expect(started.status).toBe(200);
    const cell = started.body.info.run as Cell;
    const actions = actionsFor?.(cell) ?? (solves(cell) ? solution(cell.task_id, cell.seed) : wrong(cell));
    let last: any;
    for (const action of actions) last = (await post('/step', agent, { episode_id: started.body.episode_id, action }).expect(200)).body;
    expect(last.done).toBe(true);
  }
}

async function createRun(body: object) {
  return (await post('/runs', agent, { families: FAMILIES, seed_count: 3, trials: 2, ...body }).expect(201)).body;
}

describe('other transports', () => {
  it('/ws and OpenEnv sessions on /mcp fill cells of a final-mode train run, and never show the agent key a score', async () => {
    const run = (await post('/runs', agent, { name: 'transports', agent: 'ws-agent', families: [BILLING], split: 'train', seed_count: 1, trials: 2 }).expect(201)).body;
    expect(run).toMatchObject({ split: 'train', feedback: 'final', seeds: [nthSeedOf('train', 0)] });
    const seed = run.seeds[0];
    let wsTrial = -1;

    const client = await openWsClient(`ws://${host}/ws`, bearer(agent));
    try {
      const started = await client.ask({ type: 'reset', data: { run_id: run.run_id } });
      expect(started.data.info).toMatchObject({ run: { run_id: run.run_id, task_id: BILLING, seed }, feedback: 'final', split: 'train', score: null });
      wsTrial = started.data.info.run.trial;
      let last: any;
      for (const action of solution(BILLING, seed)) last = await client.ask({ type: 'step', data: action });
      expect(last.data).toMatchObject({ done: true, reward: 0, observation: { score: null } });
      const state = await client.ask({ type: 'state' });
      expect(state.data).toMatchObject({ status: 'resolved', score: null, components: null });
      const again = await client.ask({ type: 'reset', data: { run_id: run.run_id, task_id: BILLING, seed, trial: wsTrial } });
      expect(again).toMatchObject({ type: 'error', data: { message: expect.stringMatching(/already filled/) } });
    } finally {
      client.close();
    }

    const rpc = async (method: string, params: object) => (await post('/mcp', agent, { jsonrpc: '2.0', id: 1, method, params }).expect(200)).body;
    const created = (await rpc('openenv/session/create', { run_id: run.run_id })).result;
    expect(created.info.run).toEqual({ run_id: run.run_id, task_id: BILLING, seed, trial: 1 - wsTrial });
    let last: any;
    for (const { type, ...args } of solution(BILLING, seed)) last = (await rpc('tools/call', { session_id: created.session_id, name: type, arguments: args })).result;
    expect(last.data).toMatchObject({ done: true, reward: 0, info: { score: null } });
    const none = await rpc('openenv/session/create', { run_id: run.run_id });
    expect(none.error).toMatchObject({ data: { status: 409 } });

    // The agent key reads its episodes' grades as withheld; the reader sees both cells solved.
    await post('/grader', agent, { episode_id: created.episode_id }).expect(200).expect((r) => expect(r.body.score).toBeNull());
    const cells = (await get(`/runs/${run.run_id}/cells`, reader).expect(200)).body.cells;
    expect(cells.map((c: any) => [c.status, c.score])).toEqual([
      ['finished', 1],
      ['finished', 1],
    ]);
  });
});

it('an attempt idle past the timeout is abandoned, and the cell is filled again', async () => {
  const clock = new ManualClock('2026-12-02T12:00:00Z');
  const app = await startTestApp(undefined, { EPISODE_IDLE_TIMEOUT_MINUTES: '30' }, { clock });
  try {
    const run = (await request(app.http).post('/runs').send({ name: 'idle', agent: 'a', families: [BILLING], seed_count: 1, trials: 1 }).expect(201)).body;
    const idle = (await request(app.http).post('/reset').send({ run_id: run.run_id }).expect(200)).body;
    clock.advance(31 * 60_000);
    expect(await app.app.get(EpisodeExpiryService).sweep()).toBe(1);
    const cell = (await request(app.http).get(`/runs/${run.run_id}/cells`).expect(200)).body.cells[0];
    expect(cell).toMatchObject({ status: 'abandoned', termination: 'abandoned', attempts: 1, wall_ms: 31 * 60_000 });
    const retry = (await request(app.http).post('/reset').send({ run_id: run.run_id }).expect(200)).body;
    await request(app.http).post('/step').send({ episode_id: idle.episode_id, action: { type: 'open_ticket', ticket_id: 'T-1' } }).expect(409);
    for (const action of solution(BILLING, 0)) await request(app.http).post('/step').send({ episode_id: retry.episode_id, action }).expect(200);
    const done = (await request(app.http).get(`/runs/${run.run_id}`).expect(200)).body;
    expect(done).toMatchObject({ status: 'complete', results: { terminations: { resolved: 1, abandoned: 0, retries: 1 } } });
  } finally {
    await app.app.close();
  }
});

describe('comparison and leaderboard', () => {
  let solver: any;
  let twin: any;
  let guesser: any;

  beforeAll(async () => {
    // The solver solves every cell but (seed 5, trial 1) of each family; its twin behaves exactly alike; the guesser solves none.
    const solves = (cell: Cell) => !(cell.seed === 5 && cell.trial === 1);
    solver = await createRun({ name: 'solver', agent: 'solver/1' });
    await fillAll(solver.run_id, solves);
    twin = await createRun({ name: 'twin', agent: 'twin/1' });
    await fillAll(twin.run_id, solves);
    guesser = await createRun({ name: 'guesser', agent: 'guesser/1' });
    await fillAll(guesser.run_id, () => false);
  });

  it('calls two identical agents within noise and a clearly better one better, with a sign test and a detectable difference', async () => {
    const same = (await get(`/runs/${solver.run_id}/compare/${twin.run_id}`, reader).expect(200)).body;
    expect(same.overall).toMatchObject({ pairs: 18, verdict: 'within_noise', difference: { estimate: 0 }, sign_test: { a_better: 0, b_better: 0 } });
    const better = (await get(`/runs/${solver.run_id}/compare/${guesser.run_id}`, reader).expect(200)).body;
    expect(better.overall).toMatchObject({ pairs: 18, verdict: 'a_better', sign_test: { b_better: 0 } });
    expect(better.overall.difference.low).toBeGreaterThan(0);
    expect(better.overall.minimum_detectable_difference).toBeGreaterThan(0);
    expect(better.families.map((f: any) => [f.task_id, f.verdict])).toEqual(FAMILIES.map((id) => [id, 'a_better']));
    const worse = (await get(`/runs/${guesser.run_id}/compare/${solver.run_id}`, reader).expect(200)).body;
    expect(worse.overall.verdict).toBe('b_better');
    // Results are a reader's: the agent key that ran them may not compare.
    await get(`/runs/${solver.run_id}/compare/${guesser.run_id}`, agent).expect(403);
  });

  it('refuses to pair runs graded by different grader versions (409, naming the difference)', async () => {
    const older = await createRun({ name: 'older', agent: 'older/1', seed_count: 1, trials: 1 });
    await withDirect(ctx.databaseUrl, (db) => db.run('UPDATE runs SET grader_version = 15 WHERE id = ?', [older.run_id]));
    const refused = (await get(`/runs/${solver.run_id}/compare/${older.run_id}`, reader).expect(409)).body;
    expect(refused.message).toMatch(/grader version \(\d+ vs 15\)/);
    // Pairable but nothing finished in common yet: no verdict to give.
    const unfilled = await createRun({ name: 'unfilled', agent: 'unfilled/1', seed_count: 1, trials: 1 });
    expect((await get(`/runs/${solver.run_id}/compare/${unfilled.run_id}`, reader).expect(409)).body.message).toMatch(/no finished cell in common/);
  });

  it("ranks each agent's most recent complete run, in tiers that hold twins together", async () => {
    const board = (await get('/leaderboard?split=test', reader).expect(200)).body;
    const ours = board.boards.find((b: any) => b.config_hash === solver.config_hash);
    expect(ours).toMatchObject({ trials: 2, seed_count: 3, families: FAMILIES });
    expect(ours.entries.map((e: any) => [e.agent, e.tier])).toEqual([
      [expect.stringMatching(/^(solver|twin)\/1$/), 1],
      [expect.stringMatching(/^(solver|twin)\/1$/), 1],
      ['guesser/1', 2],
    ]);
    expect(ours.entries[0].pass_hat_1.estimate).toBeCloseTo(5 / 6, 6);
    // A newer complete run of the guesser that solves everything replaces its old one: the most recent counts, not the best.
    const redo = await createRun({ name: 'guesser again', agent: 'guesser/1' });
    await fillAll(redo.run_id, () => true);
    const after = (await get('/leaderboard', reader).expect(200)).body.boards.find((b: any) => b.config_hash === solver.config_hash);
    expect(after.entries[0]).toMatchObject({ agent: 'guesser/1', run_id: redo.run_id, rank: 1, tier: 1 });
    expect(after.entries.filter((e: any) => e.agent === 'guesser/1')).toHaveLength(1);
    expect(board.tie_rule).toMatch(/leader/);
    await get('/leaderboard', agent).expect(403);
  });
});

describe('regrade', () => {
  it('lists exactly the episodes whose score changes under another grader version, and leaves the run as it was', async () => {
    // Correct replies of a blind exam set that grader versions 15 and 16 read differently, and some they read alike.
    const fixture = drawnFixtures(BILLING).find((f) => f.set === 'drawn-exam-12')!;
    const instances = fixture.instances.filter((i) => i.split === 'train');
    const withReply = (seed: number, reply: string): Action[] =>
      solution(BILLING, seed).map((action) => (action.type === 'send_reply' ? { ...action, message: reply } : action));
    const scoreUnder = (seed: number, reply: string, version: 15 | 16) => {
      const task = latestFamily(BILLING)!.generate(seed);
      let state = reset(task, seed, version);
      for (const action of withReply(seed, reply)) state = step(task, state, action).state;
      return grade(task, state).score_milli;
    };
    const differs = (seed: number, reply: string) => scoreUnder(seed, reply, 15) !== scoreUnder(seed, reply, 16);
    // Per instance, a correct reply the two versions read differently if there is one, else its first.
    const replyFor = new Map(
      instances.map((i) => {
        const texts = i.correct.map((r) => [r.reply].flat().join('\n\n'));
        return [i.seed, texts.find((text) => differs(i.seed, text)) ?? texts[0]] as const;
      }),
    );
    const seeds = instances.map((i) => i.seed);
    const expectedChanged = seeds.filter((seed) => differs(seed, replyFor.get(seed)!));
    // The set must hold both kinds, or "exactly" would not be tested.
    expect(expectedChanged.length).toBeGreaterThan(0);
    expect(expectedChanged.length).toBeLessThan(seeds.length);

    const run = (await post('/runs', agent, { name: 'regrade', agent: 'exam', families: [BILLING], split: 'train', seeds, trials: 1 }).expect(201)).body;
    await fillAll(run.run_id, () => true, (cell) => withReply(cell.seed, replyFor.get(cell.seed)!));
    const before = (await get(`/runs/${run.run_id}`, reader).expect(200)).body;

    const regrade = (await post(`/runs/${run.run_id}/regrade`, reader, { grader_version: 15 }).expect(201)).body;
    expect(regrade).toMatchObject({ run_id: run.run_id, grader_version_before: 16, grader_version: 15, episodes: seeds.length, changed: expectedChanged.length });
    expect(regrade.changed_episodes.map((e: any) => e.seed).sort()).toEqual([...expectedChanged].sort());
    for (const changed of regrade.changed_episodes) {
      expect(changed.score_before).toBe(scoreUnder(changed.seed, replyFor.get(changed.seed)!, 16) / 1000);
      expect(changed.score_after).toBe(scoreUnder(changed.seed, replyFor.get(changed.seed)!, 15) / 1000);
      expect(changed.components.length).toBeGreaterThan(0);
      for (const c of changed.components) expect(c.before).not.toBe(c.after);
    }
    // Under the grader it was scored with, nothing changes; the run itself is untouched by either.
    const same = (await post(`/runs/${run.run_id}/regrade`, reader, {}).expect(201)).body;
    expect(same).toMatchObject({ grader_version: 16, changed: 0, changed_episodes: [] });
    expect((await get(`/runs/${run.run_id}/regrade/${regrade.regrade_id}`, reader).expect(200)).body).toEqual(regrade);
    expect((await get(`/runs/${run.run_id}`, reader).expect(200)).body.results).toEqual(before.results);
    await get(`/runs/${run.run_id}/regrade/rg_000000000000000000000000`, reader).expect(404);
    await post(`/runs/${run.run_id}/regrade`, agent, {}).expect(403);
    await post(`/runs/${run.run_id}/regrade`, reader, { grader_version: 99 }).expect(422);
  });
});

describe('exports', () => {
  let run: any;

  beforeAll(async () => {
    run = (await post('/runs', agent, { name: 'export', agent: 'exporter', model: 'm-1', families: [BILLING], seed_count: 2, trials: 2 }).expect(201)).body;
    // Three of four cells filled: one solved per seed, one wrong; the fourth left pending.
    for (const [seed, trial] of [
      [0, 0],
      [5, 0],
      [0, 1],
    ]) {
      const started = (await post('/reset', agent, { run_id: run.run_id, task_id: BILLING, seed, trial }).expect(200)).body;
      const cell = started.info.run as Cell;
      const actions = cell.trial === 0 ? solution(BILLING, cell.seed) : wrong(cell);
      for (const action of actions) await post('/step', agent, { episode_id: started.episode_id, action }).expect(200);
    }
  });

  it('JSON lines: one per counted episode, with its grade and trajectory', async () => {
    const response = await get(`/runs/${run.run_id}/export?format=jsonl`, reader).expect(200);
    expect(response.headers['content-type']).toMatch(/application\/x-ndjson/);
    const lines = response.text.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.seed, l.trial, l.score === 1])).toEqual([
      [0, 0, true],
      [5, 0, true],
      [0, 1, false],
    ]);
    for (const line of lines) {
      expect(line).toMatchObject({ run_id: run.run_id, task_id: BILLING, termination: 'resolved', grader_version: 16 });
      expect(line.components.length).toBe(6);
      expect(line.actions.length).toBeGreaterThan(1);
    }
  });

  it('CSV: a header and one line per cell, pending ones included', async () => {
    const response = await get(`/runs/${run.run_id}/export?format=csv`, reader).expect(200);
    expect(response.headers['content-type']).toMatch(/text\/csv/);
    const rows = response.text.trim().split('\r\n').map((line) => line.split(','));
    expect(rows[0]).toEqual(['run_id', 'task_id', 'seed', 'trial', 'status', 'episode_id', 'attempts', 'termination', 'score', 'success', 'steps', 'wall_ms', 'input_tokens', 'output_tokens']);
    expect(rows.slice(1).map((r) => [r[2], r[3], r[4], r[8], r[9]])).toEqual([
      ['0', '0', 'finished', '1', 'true'],
      ['5', '0', 'finished', '1', 'true'],
      ['0', '1', 'finished', expect.stringMatching(/^0(\.\d+)?$/), 'false'],
      ['5', '1', 'pending', '', ''],
    ]);
  });

  it('Inspect AI log: a ZIP with the header, the journal, one sample per counted episode, summaries and reductions', async () => {
    const response = await get(`/runs/${run.run_id}/export?format=inspect`, reader)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toMatch(/\.eval"$/);
    const members = new Map(readZip(response.body as Buffer).map((entry) => [entry.name, entry.data]));
    expect([...members.keys()].sort()).toEqual(
      [
        '_journal/start.json',
        'header.json',
        'reductions.json',
        'summaries.json',
        `samples/${BILLING}:0_epoch_1.json`,
        `samples/${BILLING}:0_epoch_2.json`,
        `samples/${BILLING}:5_epoch_1.json`,
      ].sort(),
    );
    const header = JSON.parse(members.get('header.json')!.toString('utf8'));
    expect(header).toMatchObject({ status: 'started', eval: { run_id: run.run_id } });
    expect(members.get('header.json')!.toString('utf8')).not.toMatch(/NaN|Infinity/);
  });

  it('is a reader\'s: the agent key is refused, and an unknown format is a 422', async () => {
    await get(`/runs/${run.run_id}/export`, agent).expect(403);
    await get(`/runs/${run.run_id}/export?format=xml`, reader).expect(422);
    await get('/runs/run_000000000000000000000000/export', reader).expect(404);
  });
});
