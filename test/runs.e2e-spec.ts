import request from 'supertest';
import type { Action } from '../src/engine/actions';
import { latestFamily, nthSeedOf } from '../src/families';
import { referenceRun } from '../tools/validity/solvers';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, issueKey, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';

/*
 * Evaluation runs over HTTP (docs/evaluating-agents.md): a run's cells are fixed at creation and each is filled by
 * exactly one finished episode; resets claim cells atomically; results (pass^k with intervals) are a reader's; an
 * agent key sees progress, never a score.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let agent: string;
let agentKeyId: string;
let otherAgent: string;
let reader: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
  ({ key: agent, keyId: agentKeyId, readerKey: reader } = await tenantWithKey(ctx.http, 'runs-lab'));
  otherAgent = (await issueKey(ctx.http, 'runs-lab', 'agent')).key;
});
afterAll(() => ctx.app.close());

const http = () => request(ctx.http);
const post = (path: string, key: string, body: object) => http().post(path).set(bearer(key)).send(body);
const get = (path: string, key: string) => http().get(path).set(bearer(key));

const BILLING = 'billing_duplicate_charge';
const SECURITY = 'security_compromised_account';

/** The reference solver's actions on the instance the server draws (they score 1.0). */
function solution(taskId: string, seed: number): Action[] {
  return referenceRun(latestFamily(taskId)!.generate(seed), seed).actions;
}

/** An attempt that fails: the first ticket of the inbox opened and resolved at once with nothing done (scores well under 1). */
function wrong(observation: { inbox: { ticket_id: string }[] }): Action[] {
  return [
    { type: 'open_ticket', ticket_id: observation.inbox[0].ticket_id },
    { type: 'resolve_ticket', resolution: 'no_action_needed' },
  ];
}

async function createRun(body: object, key = agent) {
  return (await post('/runs', key, body).expect(201)).body;
}

/** Takes the run's next cell and plays it to the end: solved or not, as `solves` says for that cell. */
async function fillNext(runId: string, solves: (cell: { task_id: string; seed: number; trial: number }) => boolean, key = agent) {
  const started = (await post('/reset', key, { run_id: runId }).expect(200)).body;
  const cell = started.info.run;
  const actions = solves(cell) ? solution(cell.task_id, cell.seed) : wrong(started.observation);
  let last: any;
  for (const action of actions) last = (await post('/step', key, { episode_id: started.episode_id, action }).expect(200)).body;
  expect(last.done).toBe(true);
  return { episodeId: started.episode_id as string, cell, last };
}

describe('creating a run', () => {
  it('fixes every cell at creation, with a configuration hash that pairs runs of the same configuration', async () => {
    const run = await createRun({ name: 'smoke', agent: 'scripted/1', families: [BILLING, SECURITY], seed_count: 2, trials: 3 });
    expect(run).toMatchObject({
      name: 'smoke',
      agent: 'scripted/1',
      model: null,
      split: 'test',
      feedback: 'final',
      families: [BILLING, SECURITY],
      seeds: [nthSeedOf('test', 0), nthSeedOf('test', 1)],
      trials: 3,
      success_threshold: 1,
      status: 'open',
      created_by_key: agentKeyId,
      progress: { cells: 12, pending: 12, active: 0, finished: 0, abandoned: 0, failed: 0 },
      results: null,
      results_withheld: expect.stringMatching(/reader key/),
    });
    expect(run.run_id).toMatch(/^run_[0-9a-f]{24}$/);
    expect(run.versions.grader).toBeGreaterThanOrEqual(16);
    expect(Object.keys(run.versions.generators).sort()).toEqual([BILLING, SECURITY]);
    // Same configuration, other order, other agent: same hash. Another k: another hash.
    const same = await createRun({ name: 'other', agent: 'scripted/2', families: [SECURITY, BILLING], seeds: [5, 0], trials: 3 });
    expect(same.config_hash).toBe(run.config_hash);
    const other = await createRun({ name: 'other', agent: 'scripted/2', families: [SECURITY, BILLING], seeds: [5, 0], trials: 2 });
    expect(other.config_hash).not.toBe(run.config_hash);
    const cells = (await get(`/runs/${run.run_id}/cells?limit=5`, agent).expect(200)).body;
    expect(cells.cells.map((c: any) => [c.task_id, c.seed, c.trial, c.status, c.score])).toEqual([
      [BILLING, 0, 0, 'pending', null],
      [SECURITY, 0, 0, 'pending', null],
      [BILLING, 5, 0, 'pending', null],
      [SECURITY, 5, 0, 'pending', null],
      [BILLING, 0, 1, 'pending', null],
    ]);
    const rest = (await get(`/runs/${run.run_id}/cells?limit=50&cursor=${cells.next_cursor}`, agent).expect(200)).body;
    expect(rest.cells).toHaveLength(7);
    expect(rest.next_cursor).toBeNull();
  });

  it.each([
    ['both seeds and seed_count', { seeds: [0], seed_count: 1 }, ['seeds', 'seed_count']],
    ['neither', {}, ['seeds', 'seed_count']],
    ['a train seed on the test split', { seeds: [0, 3] }, ['seeds']],
    ['an unknown family', { seed_count: 1, families: ['nope'] }, ['families']],
    ['dense feedback on the test split', { seed_count: 1, feedback: 'dense' }, ['split', 'feedback']],
    ['zero trials', { seed_count: 1, trials: 0 }, ['trials']],
    ['families that is neither "all" nor a list', { seed_count: 1, families: 'billing' }, ['families']],
    ['a duplicated seed', { seeds: [0, 0] }, ['seeds']],
    ['an unknown field', { seed_count: 1, colour: 'red' }, ['colour']],
  ])('refuses %s (422) and creates nothing', async (_name, fields, named) => {
    const before = (await get('/runs?limit=200', agent).expect(200)).body.runs.length;
    const body = { name: 'bad', agent: 'a', families: 'all', trials: 1, ...fields };
    const refused = (await post('/runs', agent, body).expect(422)).body;
    expect(refused.details.map((d: { field: string }) => d.field).sort()).toEqual([...named].sort());
    expect((await get('/runs?limit=200', agent).expect(200)).body.runs.length).toBe(before);
  });

  it('is an agent-key action: a reader key cannot create a run, nor can the admin key', async () => {
    await post('/runs', reader, { name: 'r', agent: 'a', families: 'all', seed_count: 1, trials: 1 }).expect(403);
    await http().post('/runs').set(asAdmin).send({ name: 'r', agent: 'a', families: 'all', seed_count: 1, trials: 1 }).expect(403);
  });
});

describe('filling cells', () => {
  it('hands out each cell once, refuses a cell being filled or filled (409) and one that does not exist (422)', async () => {
    const run = await createRun({ name: 'cells', agent: 'scripted/1', families: [BILLING], seed_count: 1, trials: 2 });
    const first = (await post('/reset', agent, { run_id: run.run_id, task_id: BILLING, seed: 0, trial: 0 }).expect(200)).body;
    expect(first.info.run).toEqual({ run_id: run.run_id, task_id: BILLING, seed: 0, trial: 0 });
    expect(first.info).toMatchObject({ feedback: 'final', split: 'test', agent: 'scripted/1', run_label: `${run.run_id}/trial-0` });
    // The same cell again while it is being filled: 409, and nothing is created.
    const busy = (await post('/reset', agent, { run_id: run.run_id, task_id: BILLING, seed: 0, trial: 0 }).expect(409)).body;
    expect(busy.message).toMatch(/being filled by episode/);
    // The next one is trial 1; then none is left while both are active.
    const second = (await post('/reset', agent, { run_id: run.run_id }).expect(200)).body;
    expect(second.info.run.trial).toBe(1);
    expect((await post('/reset', agent, { run_id: run.run_id }).expect(409)).body.message).toMatch(/no cell left/);
    // Cells and runs that do not exist.
    expect((await post('/reset', agent, { run_id: run.run_id, task_id: BILLING, seed: 5, trial: 0 }).expect(422)).body.details[0].field).toBe('run_id');
    expect((await post('/reset', agent, { run_id: run.run_id, task_id: BILLING, seed: 0, trial: 2 }).expect(422)).body.details[0].field).toBe('run_id');
    expect((await post('/reset', agent, { run_id: 'run_000000000000000000000000' }).expect(404)).body.message).toMatch(/no run/);
    // Half a cell name, a clash with what the run decides, a trial without a run.
    expect((await post('/reset', agent, { run_id: run.run_id, task_id: BILLING }).expect(422)).body.message).toMatch(/seed and trial are missing/);
    expect((await post('/reset', agent, { run_id: run.run_id, feedback: 'dense' }).expect(422)).body.details.map((d: any) => d.field).sort()).toEqual(['feedback', 'run_id']);
    expect((await post('/reset', agent, { trial: 0 }).expect(422)).body.details[0].field).toBe('trial');
    // A malformed request is a 422 whether or not its run exists (the document's rules are about the body alone).
    expect((await post('/reset', agent, { run_id: 'run_000000000000000000000000', feedback: 'dense' }).expect(422)).body.details.map((d: any) => d.field).sort()).toEqual(['feedback', 'run_id']);
    expect((await post('/reset', agent, { run_id: 'run_000000000000000000000000', seed: 5 }).expect(422)).body.message).toMatch(/task_id and trial are missing/);
    // Another agent key of the tenant cannot fill (or see) this key's run.
    await post('/reset', otherAgent, { run_id: run.run_id }).expect(404);
    await get(`/runs/${run.run_id}`, otherAgent).expect(404);

    for (const action of solution(BILLING, 0)) await post('/step', agent, { episode_id: first.episode_id, action }).expect(200);
    const filled = (await post('/reset', agent, { run_id: run.run_id, task_id: BILLING, seed: 0, trial: 0 }).expect(409)).body;
    expect(filled.message).toMatch(/already filled/);
    const progress = (await get(`/runs/${run.run_id}`, agent).expect(200)).body.progress;
    expect(progress).toMatchObject({ cells: 2, finished: 1, active: 1, pending: 0 });
  });

  it('an infrastructure failure ends the attempt and frees the cell; the first finished episode counts', async () => {
    const run = await createRun({ name: 'retry', agent: 'scripted/1', families: [BILLING], seed_count: 1, trials: 1 });
    const failed = (await post('/reset', agent, { run_id: run.run_id }).expect(200)).body;
    const reported = (await post(`/runs/${run.run_id}/episodes/${failed.episode_id}/report`, agent, { input_tokens: 100, output_tokens: 7, infrastructure_error: 'model endpoint: 503' }).expect(200)).body;
    expect(reported).toMatchObject({ status: 'failed', termination: 'infrastructure_error', attempts: 1, input_tokens: 100, output_tokens: 7, score: null });
    // The failed episode has ended: it can no longer be stepped, and cannot fill the cell later.
    await post('/step', agent, { episode_id: failed.episode_id, action: wrong(failed.observation)[0] }).expect(409);
    await post(`/runs/${run.run_id}/episodes/${failed.episode_id}/report`, agent, { infrastructure_error: 'again' }).expect(409);
    const retry = (await post('/reset', agent, { run_id: run.run_id }).expect(200)).body;
    expect(retry.info.run).toMatchObject({ task_id: BILLING, seed: 0, trial: 0 });
    for (const action of solution(BILLING, 0)) await post('/step', agent, { episode_id: retry.episode_id, action }).expect(200);
    await post(`/runs/${run.run_id}/episodes/${retry.episode_id}/report`, agent, { input_tokens: 50 }).expect(200);
    const cells = (await get(`/runs/${run.run_id}/cells`, reader).expect(200)).body.cells;
    expect(cells).toEqual([
      expect.objectContaining({ status: 'finished', episode_id: retry.episode_id, attempts: 2, termination: 'resolved', input_tokens: 150, output_tokens: 7, score: 1 }),
    ]);
    const done = (await get(`/runs/${run.run_id}`, reader).expect(200)).body;
    expect(done.status).toBe('complete');
    expect(done.completed_at).toEqual(expect.any(String));
    expect(done.results.terminations).toEqual({ resolved: 1, out_of_steps: 0, gave_up: 0, abandoned: 0, infrastructure_error: 0, retries: 1 });
    expect(done.results.totals).toMatchObject({ input_tokens: 150, output_tokens: 7 });
    await post(`/runs/${run.run_id}/episodes/${retry.episode_id}/report`, agent, { input_tokens: -1 }).expect(422);
    await post(`/runs/${run.run_id}/episodes/no-such-episode/report`, agent, { input_tokens: 1 }).expect(404);
  });
});

describe('concurrent workers', () => {
  it('twelve resets at once on a run of ten cells: ten get distinct cells, two are told none is left', async () => {
    const run = await createRun({ name: 'race', agent: 'racer', families: [BILLING, SECURITY], seed_count: 5, trials: 1 });
    const answers = await Promise.all(Array.from({ length: 12 }, () => post('/reset', agent, { run_id: run.run_id })));
    const started = answers.filter((a) => a.status === 200).map((a) => a.body.info.run);
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(10).fill(200), 409, 409]);
    expect(new Set(started.map((c: any) => `${c.task_id}/${c.seed}/${c.trial}`)).size).toBe(10);
    const cells = (await get(`/runs/${run.run_id}/cells?limit=20`, agent).expect(200)).body.cells;
    expect(cells.every((c: any) => c.status === 'active' && c.attempts === 1)).toBe(true);
    expect(new Set(cells.map((c: any) => c.episode_id)).size).toBe(10);
  });
});

describe('giving up', () => {
  it('an agent that gives up finishes its cell with the score the episode had; the cell is not handed out again', async () => {
    const run = await createRun({ name: 'give-up', agent: 'quitter', families: [BILLING], seed_count: 1, trials: 1 });
    const started = (await post('/reset', agent, { run_id: run.run_id }).expect(200)).body;
    const [open] = solution(BILLING, 0);
    await post('/step', agent, { episode_id: started.episode_id, action: open }).expect(200);
    const both = (await post(`/runs/${run.run_id}/episodes/${started.episode_id}/report`, agent, { gave_up: true, infrastructure_error: 'x' }).expect(422)).body;
    expect(both.details.map((d: any) => d.field).sort()).toEqual(['gave_up', 'infrastructure_error']);
    await post(`/runs/${run.run_id}/episodes/${started.episode_id}/report`, agent, { gave_up: false }).expect(422);
    const cell = (await post(`/runs/${run.run_id}/episodes/${started.episode_id}/report`, agent, { gave_up: true, output_tokens: 3 }).expect(200)).body;
    expect(cell).toMatchObject({ status: 'finished', termination: 'gave_up', attempts: 1, output_tokens: 3, score: null });
    await post('/step', agent, { episode_id: started.episode_id, action: open }).expect(409);
    await post('/reset', agent, { run_id: run.run_id }).expect(409);
    await post(`/runs/${run.run_id}/episodes/${started.episode_id}/report`, agent, { gave_up: true }).expect(409);
    const scored = (await get(`/state/${started.episode_id}`, reader).expect(200)).body.score;
    expect(scored).toBeGreaterThan(0);
    const done = (await get(`/runs/${run.run_id}`, reader).expect(200)).body;
    expect(done).toMatchObject({ status: 'complete', results: { terminations: { gave_up: 1, retries: 0 }, overall: { mean_score: { estimate: scored } } } });
  });
});

describe('results', () => {
  /**
   * 2 families × 2 test seeds × 3 trials. Billing always solved; security solved on seed 0 in trials 0 and 1, never on
   * seed 5. Per (family, seed) successes c of n = 3: billing 3, 3; security 2, 0.
   *   pass^1 = mean over families of mean over seeds of c/3:        billing 1, security (2/3 + 0)/2 = 1/3  → 2/3
   *   pass^2 = C(c,2)/C(3,2): billing 1, security (1/3 + 0)/2 = 1/6                                       → 7/12
   *   pass^3 = C(c,3)/C(3,3): billing 1, security 0                                                         → 1/2
   * Flip rate: billing 0; security: seed 0's trials disagree, seed 5's do not → 1/2; overall 1/4.
   */
  it('gives pass^k for k = 1..3 as hand-computed, with intervals around it, to a reader only', async () => {
    const run = await createRun({ name: 'fixture', agent: 'scripted/1', families: [BILLING, SECURITY], seed_count: 2, trials: 3 });
    const solves = (cell: { task_id: string; seed: number; trial: number }) => cell.task_id === BILLING || (cell.seed === 0 && cell.trial < 2);
    const seen: any[] = [];
    for (let i = 0; i < 12; i++) seen.push((await fillNext(run.run_id, solves)).last);
    // The agent key saw no score at any point, not even in the step that ended each episode.
    for (const last of seen) expect([last.reward, last.info.score, last.observation.score]).toEqual([0, null, null]);
    const asAgent = (await get(`/runs/${run.run_id}`, agent).expect(200)).body;
    expect(asAgent).toMatchObject({ status: 'complete', results: null, progress: { finished: 12 } });
    expect((await get(`/runs/${run.run_id}/cells?limit=100`, agent).expect(200)).body.cells.every((c: any) => c.score === null)).toBe(true);

    const results = (await get(`/runs/${run.run_id}`, reader).expect(200)).body.results;
    const estimates = results.overall.pass_hat_k.map((p: any) => [p.k, Number(p.estimate.toFixed(6))]);
    expect(estimates).toEqual([
      [1, Number((2 / 3).toFixed(6))],
      [2, Number((7 / 12).toFixed(6))],
      [3, 0.5],
    ]);
    for (const p of results.overall.pass_hat_k) expect(p.low).toBeLessThanOrEqual(p.estimate);
    for (const p of results.overall.pass_hat_k) expect(p.high).toBeGreaterThanOrEqual(p.estimate);
    expect(results.overall.flip_rate).toBeCloseTo(0.25, 6);
    const security = results.families.find((f: any) => f.task_id === SECURITY);
    expect(security.pass_hat_k[0].estimate).toBeCloseTo(1 / 3, 6);
    expect(security.flip_rate).toBeCloseTo(0.5, 6);
    expect(results.terminations.resolved).toBe(12);
    expect(results.method).toMatchObject({ resamples: 2000, level: 0.95, estimand: expect.any(String), resampling: expect.any(String) });
    expect(JSON.stringify(results)).not.toMatch(/NaN|Infinity/);
  });
});

describe('tenancy', () => {
  it("another tenant's keys reach none of a run's routes: each answers like a missing run (404), and nothing changes", async () => {
    const run = await createRun({ name: 'private', agent: 'a', families: [BILLING], seed_count: 1, trials: 1 });
    const mine = (await post('/reset', agent, { run_id: run.run_id }).expect(200)).body.episode_id;
    const other = await tenantWithKey(ctx.http, 'runs-other');
    const missing = 'run_000000000000000000000000';
    const calls: [string, string, (id: string) => request.Test][] = [
      ['GET /runs/{id}', other.readerKey, (id) => get(`/runs/${id}`, other.readerKey)],
      ['GET /runs/{id} (agent)', other.key, (id) => get(`/runs/${id}`, other.key)],
      ['GET /runs/{id}/cells', other.readerKey, (id) => get(`/runs/${id}/cells`, other.readerKey)],
      ['GET /runs/{id}/compare/{id}', other.readerKey, (id) => get(`/runs/${id}/compare/${id}`, other.readerKey)],
      ['GET /runs/{id}/export', other.readerKey, (id) => get(`/runs/${id}/export`, other.readerKey)],
      ['POST /runs/{id}/regrade', other.readerKey, (id) => post(`/runs/${id}/regrade`, other.readerKey, {})],
      ['POST /runs/{id}/episodes/{e}/report', other.key, (id) => post(`/runs/${id}/episodes/${mine}/report`, other.key, { infrastructure_error: 'x' })],
      ['POST /reset {run_id}', other.key, (id) => post('/reset', other.key, { run_id: id })],
    ];
    for (const [name, , call] of calls) {
      const foreign = (await call(run.run_id).expect(404)).body.message.replace(run.run_id, 'ID');
      const absent = (await call(missing).expect(404)).body.message.replace(missing, 'ID');
      expect([name, foreign]).toEqual([name, absent]);
    }
    expect((await get('/runs', other.readerKey).expect(200)).body.runs).toEqual([]);
    expect((await get(`/runs/${run.run_id}`, agent).expect(200)).body.progress).toMatchObject({ active: 1, failed: 0 });
    await http().get(`/runs/${run.run_id}`).set(asAdmin).expect(403);
  });
});
