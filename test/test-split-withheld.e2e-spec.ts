import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { formatBaselineTable, runBaseline } from '../src/baseline';
import type { Action } from '../src/engine/actions';
import { latestFamily, nthSeedOf } from '../src/families';
import { remoteEnvironment } from '../tools/cli/remote-environment';
import { referenceRun } from '../tools/validity/solvers';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, issueKey, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { openWsClient } from './support/ws-client';

/*
 * No leakage of test instances (docs/evaluation.md, "What an agent key never sees"): with keys required, an agent key
 * is never shown the score, the rewards, the grade breakdown or the reply details of a test-split episode, while it
 * runs or after it ends, on HTTP, /ws, /mcp and the OpenEnv sessions; a reader key sees everything, another agent key
 * of the tenant sees nothing of it at all, and POST /baseline hands an agent key no test-split grade. What the agent
 * key is shown is held to the reader's grade: none of the reply details' descriptions (which name the values) appear.
 */

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let host: string;
let agent: string;
let otherAgent: string;
let reader: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
  await ctx.app.listen(0, '127.0.0.1');
  host = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  ({ key: agent, readerKey: reader } = await tenantWithKey(ctx.http, 'eval-lab'));
  otherAgent = (await issueKey(ctx.http, 'eval-lab', 'agent')).key;
});
afterAll(() => ctx.app.close());

const http = () => request(ctx.http);
const post = (path: string, key: string, body: object) => http().post(path).set(bearer(key)).send(body);

/** The reference solver's actions on the instance the server draws for this seed (they score 1.0). */
function solution(taskId: string, seed: number): Action[] {
  return referenceRun(latestFamily(taskId)!.generate(seed), seed).actions;
}

/**
 * Every grading value in a response, wherever it sits (a search hit's relevance `score` is no grade): scores,
 * components, penalties and reply details must be null, rewards 0 or null.
 */
function expectWithheld(body: unknown, path = ''): void {
  if (body === null || typeof body !== 'object') return;
  for (const [key, value] of Object.entries(body)) {
    const at = `${path}.${key}`;
    if (key === 'search_results') continue;
    if (['score', 'score_after', 'components', 'penalties', 'reply_details', 'mean_score', 'test'].includes(key)) expect([at, value]).toEqual([at, null]);
    else if (key === 'reward') expect([at, value === 0 || value === null]).toEqual([at, true]);
    else expectWithheld(value, at);
  }
}

/** What the reader's grade says the customer must be told, values included: none of it may reach the agent key. */
async function answersOf(episodeId: string): Promise<string[]> {
  const graded = (await post('/grader', reader, { episode_id: episodeId }).expect(200)).body;
  expect(graded).toMatchObject({ score: 1, status: 'resolved' });
  const descriptions = graded.reply_details.map((detail: { description: string | null }) => detail.description);
  expect(descriptions.length).toBeGreaterThan(0);
  expect(descriptions.every((d: unknown) => typeof d === 'string' && d.length > 20)).toBe(true);
  return descriptions;
}

/**
 * None of the answers in what the agent key was shown, apart from what it may read anyway: the knowledge base
 * (search results quote the policies, which state some details word for word) and its own actions (its replies).
 * JSON held in text (an MCP result's text content) is read as JSON.
 */
function expectNoAnswers(seen: unknown[], answers: string[]): void {
  const shown = (value: unknown): unknown => {
    if (typeof value === 'string' && value.startsWith('{')) {
      try {
        return shown(JSON.parse(value));
      } catch {
        return value;
      }
    }
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(shown);
    const own = ['search_results', 'recent_actions', 'actions', 'action'];
    return Object.fromEntries(Object.entries(value).filter(([key]) => !own.includes(key)).map(([key, v]) => [key, shown(v)]));
  };
  const text = JSON.stringify(shown(seen));
  for (const answer of answers) expect(text).not.toContain(answer);
}

describe('HTTP', () => {
  it("an agent key is shown nothing of a test-split episode's grading, while it runs or once it has ended; a reader key sees it all", async () => {
    const started = (await post('/reset', agent, { task_id: 'billing_duplicate_charge', seed: 0 }).expect(200)).body;
    expect(started.info).toMatchObject({ variant: 'generated', split: 'test', feedback: 'final', score: null });
    const id = started.episode_id;
    const seen: unknown[] = [started];
    const actions = solution('billing_duplicate_charge', 0);
    let last: any;
    for (const [i, action] of actions.entries()) {
      last = (await post('/step', agent, { episode_id: id, action, request_id: `step-${i}` }).expect(200)).body;
      seen.push(last);
    }
    // The step that ends it carries no score either: reward 0, as every step before it, and a null score.
    expect(last).toMatchObject({ done: true, reward: 0, info: { score: null, status: 'resolved' }, observation: { score: null } });
    const retried = (await post('/step', agent, { episode_id: id, action: actions.at(-1), request_id: `step-${actions.length - 1}` }).expect(200)).body;
    expect(retried).toEqual(last);
    const state = (await http().get(`/state/${id}`).set(bearer(agent)).expect(200)).body;
    expect(state).toMatchObject({ status: 'resolved', done: true, score: null, components: null });
    expect(state.actions.map((a: any) => [a.reward, a.score_after])).toEqual(actions.map(() => [null, null]));
    const latest = (await http().get('/state').set(bearer(agent)).expect(200)).body;
    expect(latest.episode_id).toBe(id);
    const graded = (await post('/grader', agent, { episode_id: id }).expect(200)).body;
    expect(graded).toMatchObject({ status: 'resolved', feedback: 'final', score: null, components: null, reply_details: null, penalties: null });
    seen.push(retried, state, latest, graded);
    for (const body of seen) expectWithheld(body);

    // The reader key: the score, the breakdown, the reply details, the per-step rewards.
    const answers = await answersOf(id);
    expectNoAnswers(seen, answers);
    const asRead = (await http().get(`/state/${id}`).set(bearer(reader)).expect(200)).body;
    expect(asRead).toMatchObject({ score: 1, status: 'resolved' });
    expect(asRead.components).toHaveLength(6);
    expect(asRead.actions.map((a: any) => a.reward).reduce((x: number, y: number) => x + y, 0)).toBeCloseTo(1);
    expect((await http().get(`/episodes/${id}`).set(bearer(reader)).expect(200)).body).toMatchObject({ score: 1, split: 'test' });
    expect((await http().get(`/episodes/${id}/actions`).set(bearer(reader)).expect(200)).body.actions.every((a: any) => typeof a.reward === 'number')).toBe(true);
  });

  it('another agent key of the same tenant cannot read it at all, nor any audit view; its own test episodes are withheld from it too', async () => {
    const id = (await post('/reset', agent, { task_id: 'billing_duplicate_charge', seed: 10 }).expect(200)).body.episode_id;
    for (const action of solution('billing_duplicate_charge', 10)) await post('/step', agent, { episode_id: id, action }).expect(200);
    const missing = (await http().get(`/state/${id}`).set(bearer(otherAgent)).expect(404)).body;
    expect(missing).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', message: `no episode "${id}"` });
    await post('/grader', otherAgent, { episode_id: id }).expect(404);
    await post('/step', otherAgent, { episode_id: id, action: { type: 'open_ticket', ticket_id: 'T-1' } }).expect(404);
    for (const path of [`/episodes/${id}`, `/episodes/${id}/actions`, `/episodes/${id}/verify`, `/episodes/${id}/rescore`, '/episodes', '/episodes/export', '/stats']) {
      for (const key of [agent, otherAgent]) {
        const refused = (await http().get(path).set(bearer(key)).expect(403)).body;
        expect([path, refused.code]).toEqual([path, 'FORBIDDEN']);
      }
    }
    // The same seed played by the other key: nothing of its grading either.
    const own = (await post('/reset', otherAgent, { task_id: 'billing_duplicate_charge', seed: 10 }).expect(200)).body.episode_id;
    const seen: unknown[] = [];
    for (const action of solution('billing_duplicate_charge', 10)) seen.push((await post('/step', otherAgent, { episode_id: own, action }).expect(200)).body);
    seen.push((await post('/grader', otherAgent, { episode_id: own }).expect(200)).body);
    for (const body of seen) expectWithheld(body);
    expectNoAnswers(seen, await answersOf(own));
  });

  it('train-split and canonical episodes are shown as before: the score at the end of a "final" one, every reward of a dense one', async () => {
    const train = (await post('/reset', agent, { task_id: 'billing_duplicate_charge', seed: 1, feedback: 'final' }).expect(200)).body.episode_id;
    let last: any;
    for (const action of solution('billing_duplicate_charge', 1)) last = (await post('/step', agent, { episode_id: train, action }).expect(200)).body;
    expect(last).toMatchObject({ done: true, reward: 1, info: { score: 1 } });
    const graded = (await post('/grader', agent, { episode_id: train }).expect(200)).body;
    expect(graded).toMatchObject({ score: 1, penalties: [] });
    expect(graded.reply_details.every((d: any) => d.covered && d.description)).toBe(true);
    const canonical = (await post('/reset', agent, { variant: 'canonical', seed: 5 }).expect(200)).body;
    expect(canonical.info).toMatchObject({ split: null, feedback: 'dense', score: 0 });
  });

  it('open mode is not an evaluation setting: the open-mode user, agent and reader at once, sees a test episode graded once it ends', async () => {
    const open = await startTestApp();
    try {
      const id = (await request(open.http).post('/reset').send({ task_id: 'billing_duplicate_charge', seed: 0 }).expect(200)).body.episode_id;
      let last: any;
      for (const action of solution('billing_duplicate_charge', 0)) last = (await request(open.http).post('/step').send({ episode_id: id, action }).expect(200)).body;
      expect(last).toMatchObject({ done: true, reward: 1, info: { score: 1 } });
    } finally {
      await open.app.close();
    }
  });
});

it('/ws: reset, steps, tool messages, MCP over the socket and the state message withhold it from an agent key', async () => {
  const taskId = 'security_compromised_account';
  const client = await openWsClient(`ws://${host}/ws`, bearer(agent));
  try {
    const started = await client.ask({ type: 'reset', data: { task_id: taskId, seed: 5 } });
    expect(started.data.info).toMatchObject({ split: 'test', feedback: 'final', score: null });
    const actions = solution(taskId, 5);
    const seen: unknown[] = [started];
    for (const action of actions.slice(0, -1)) seen.push(await client.ask({ type: 'step', data: action }));
    // The last action as OpenEnv's MCPToolClient sends it: a call_tool step message.
    const { type, ...args } = actions.at(-1)!;
    const ended = await client.ask({ type: 'step', data: { type: 'call_tool', tool_name: type, arguments: args } });
    expect(ended.data).toMatchObject({ reward: 0, done: true, observation: { error: null, result: { data: { done: true, reward: 0, info: { score: null } } } } });
    const state = await client.ask({ type: 'state' });
    expect(state.data).toMatchObject({ status: 'resolved', score: null, components: null });
    const inbox = await client.ask({ type: 'step', data: { type: 'call_tool', tool_name: 'view_inbox', arguments: {} } });
    expect(inbox.data.observation.result.data).toMatchObject({ score: null });
    const overMcp = await client.ask({ type: 'mcp', data: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'view_inbox', arguments: {} } } });
    expect(overMcp.data.result.structuredContent).toMatchObject({ score: null });
    seen.push(ended, state, inbox, overMcp);
    for (const message of seen) expect((message as { type: string }).type).not.toBe('error');
    for (const message of seen) expectWithheld(message);
    expectNoAnswers(seen, await answersOf(started.data.episode_id));
  } finally {
    client.close();
  }
});

it('/mcp: tool results carry no reward and no score for an agent key, before and after the end', async () => {
  const taskId = 'logistics_missing_order_vip';
  const id = (await post('/reset', agent, { task_id: taskId, seed: 15 }).expect(200)).body.episode_id;
  const client = new Client({ name: 'eval-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { requestInit: { headers: { ...bearer(agent), 'x-episode-id': id } } }));
  try {
    const seen: unknown[] = [];
    let last: any;
    for (const { type, ...args } of solution(taskId, 15)) {
      const result = await client.callTool({ name: type, arguments: args });
      expect(result.isError).toBe(false);
      last = result.structuredContent;
      seen.push(result);
    }
    expect(last).toMatchObject({ done: true, reward: 0, info: { score: null, status: 'resolved' } });
    const inbox = await client.callTool({ name: 'view_inbox', arguments: {} });
    expect(inbox.structuredContent).toMatchObject({ score: null });
    seen.push(inbox);
    for (const result of seen) expectWithheld(result);
    expectNoAnswers(seen, await answersOf(id));
  } finally {
    await client.close();
  }
});

it('OpenEnv sessions on /mcp: session/create and tools/call withhold it from an agent key', async () => {
  const rpc = async (method: string, params: Record<string, unknown>) =>
    (await http().post('/mcp').set(bearer(agent)).send({ jsonrpc: '2.0', id: 1, method, params }).expect(200)).body;
  const created = (await rpc('openenv/session/create', { task_id: 'billing_duplicate_charge', seed: 20 })).result;
  expect(created).toMatchObject({ info: { split: 'test', score: null }, observation: { score: null } });
  const seen: unknown[] = [created];
  let last: any;
  for (const { type, ...args } of solution('billing_duplicate_charge', 20)) {
    last = (await rpc('tools/call', { session_id: created.session_id, name: type, arguments: args })).result;
    seen.push(last);
  }
  expect(last.data).toMatchObject({ done: true, reward: 0, info: { score: null } });
  const inbox = (await rpc('tools/call', { session_id: created.session_id, name: 'view_inbox', arguments: {} })).result;
  expect(inbox.data).toMatchObject({ score: null });
  seen.push(inbox);
  for (const result of seen) expectWithheld(result);
  expectNoAnswers(seen, await answersOf(created.episode_id));
});

describe('POST /baseline', () => {
  it('hands an agent key no test-split grade (null, as withheld); the canonical and train figures stay; a reader reads the test ones', async () => {
    const run = (await post('/baseline', agent, { task_ids: ['billing_duplicate_charge'] }).expect(200)).body;
    const test = run.episodes.filter((e: any) => e.split === 'test');
    expect(test.map((e: any) => e.seed)).toEqual(Array.from({ length: 10 }, (_, n) => nthSeedOf('test', n)));
    expect(test.map((e: any) => [e.score, e.components])).toEqual(test.map(() => [null, null]));
    expect(run.episodes.filter((e: any) => e.split !== 'test').every((e: any) => typeof e.score === 'number' && e.components.length === 6)).toBe(true);
    expect(run.results).toEqual([{ task_id: 'billing_duplicate_charge', canonical: expect.any(Number), train: expect.any(Number), test: null }]);
    expect(run.mean_score).toBeNull();
    expectWithheld(run.episodes.filter((e: any) => e.split === 'test'));

    // Nor afterwards: they are the agent key's episodes, and stay withheld from it.
    const graded = (await post('/grader', agent, { episode_id: test[0].episode_id }).expect(200)).body;
    expect(graded).toMatchObject({ status: 'resolved', score: null, reply_details: null });
    // The reader key reads them; their mean is the baseline's test figure, as the CLI prints it with a reader key.
    const scores: number[] = [];
    for (const e of test) scores.push((await post('/grader', reader, { episode_id: e.episode_id }).expect(200)).body.score);
    const remote = await remoteEnvironment(`http://${host}`, agent, reader);
    const read = await runBaseline(remote.environment, ['billing_duplicate_charge'], remote.limits);
    expect(read.episodes.filter((e) => e.split === 'test').map((e) => e.score)).toEqual(scores);
    expect(read.results[0].test).toBeCloseTo(scores.reduce((a, b) => a + b, 0) / scores.length, 3);
    expect(formatBaselineTable(read, remote.difficulties)).not.toContain('withheld');

    // Without the reader key the CLI's table says the test figures are withheld.
    const withheld = await runBaseline((await remoteEnvironment(`http://${host}`, agent)).environment, ['billing_duplicate_charge'], remote.limits);
    expect(withheld.mean_score).toBeNull();
    const table = formatBaselineTable(withheld, remote.difficulties);
    expect(table).toMatch(/^billing_duplicate_charge\s+easy\s+\d\.\d{3}\s+\d\.\d{3}\s+withheld$/m);
    expect(table).toMatch(/^mean\s+withheld$/m);
    expect(table).toContain('test-split scores withheld');

    // Three runs of the baseline on one tenant: the test seeds of the second and third are repeated test plays.
    const stats = (await http().get('/stats').set(bearer(reader)).query({ agent: 'heuristic-reading-v3', group_by: 'agent' }).expect(200)).body;
    expect(stats.tasks).toEqual([expect.objectContaining({ task_id: 'billing_duplicate_charge', agent: 'heuristic-reading-v3', count: 63, repeated_test_plays: 20 })]);
  });

  it('a reader key still cannot run it (403)', async () => {
    expect((await post('/baseline', reader, {}).expect(403)).body).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('repeated test plays', () => {
  let a1: string;
  let a2: string;
  let labReader: string;
  const plays: Record<string, string> = {};

  /**
   * Starts an episode (a play counts whether or not it is finished) and remembers its id under `name`; a few
   * milliseconds apart, so that creation times (milliseconds) order the plays as they were made.
   */
  async function play(name: string, key: string, body: object): Promise<void> {
    plays[name] = (await post('/reset', key, body).expect(200)).body.episode_id;
    await new Promise((resolve) => setTimeout(resolve, 3));
  }

  beforeAll(async () => {
    ({ key: a1, readerKey: labReader } = await tenantWithKey(ctx.http, 'replay-lab'));
    a2 = (await issueKey(ctx.http, 'replay-lab', 'agent')).key;
    const other = (await tenantWithKey(ctx.http, 'other-lab')).key;
    const cell = { task_id: 'billing_duplicate_charge', seed: 0, agent: 'm', run_label: 'r' };
    await play('first', a1, cell);
    await play('again', a1, cell);
    await play('again by another key', a2, cell);
    await play('another run label', a1, { ...cell, run_label: 'r2' });
    await play('another agent', a1, { ...cell, agent: 'm2' });
    await play('unlabelled', a1, { task_id: 'billing_duplicate_charge', seed: 0 });
    await play('unlabelled again', a1, { task_id: 'billing_duplicate_charge', seed: 0 });
    await play('train', a1, { ...cell, seed: 1 });
    await play('train again', a1, { ...cell, seed: 1 });
    await play('canonical', a1, { ...cell, variant: 'canonical' });
    await play('canonical again', a1, { ...cell, variant: 'canonical' });
    await play('another task', a1, { ...cell, task_id: 'security_compromised_account' });
    await play('another seed', a1, { ...cell, seed: 5 });
    await play('other tenant', other, cell);
    await play('other tenant again', other, cell);
  });

  const ids = (names: string[]) => names.map((name) => plays[name]);
  const list = async (query: Record<string, string>, key = labReader) =>
    (await http().get('/episodes').set(bearer(key)).query({ limit: 200, ...query }).expect(200)).body.items.map((e: any) => e.episode_id);

  it('GET /episodes?repeated_test_play=true lists the plays of a run cell (tenant, task, test seed, agent, run label) after its first, from any key of the tenant', async () => {
    const repeated = ['unlabelled again', 'again by another key', 'again'];
    expect(await list({ repeated_test_play: 'true' })).toEqual(ids(repeated));
    const others = Object.keys(plays).filter((name) => !repeated.includes(name) && !name.startsWith('other tenant')).reverse();
    expect(await list({ repeated_test_play: 'false' })).toEqual(ids(others));
    expect(await list({ repeated_test_play: 'true', agent: 'm' })).toEqual(ids(['again by another key', 'again']));
    const exported = (await http().get('/episodes/export').set(bearer(labReader)).query({ repeated_test_play: 'true' }).expect(200)).text;
    expect(exported.trim().split('\n').map((line) => JSON.parse(line).episode_id)).toEqual(ids(repeated));
  });

  it('/stats counts them per task (and per agent), in total, and under the same filters as the listing', async () => {
    const stats = (await http().get('/stats').set(bearer(labReader)).expect(200)).body;
    expect(stats.repeated_test_plays).toBe(3);
    expect(stats.tasks.map((t: any) => [t.task_id, t.count, t.repeated_test_plays])).toEqual([
      ['billing_duplicate_charge', 12, 3],
      ['security_compromised_account', 1, 0],
    ]);
    const byAgent = (await http().get('/stats').set(bearer(labReader)).query({ group_by: 'agent' }).expect(200)).body;
    expect(byAgent.tasks.map((t: any) => [t.task_id, t.agent, t.repeated_test_plays])).toEqual([
      ['billing_duplicate_charge', 'm', 2],
      ['billing_duplicate_charge', 'm2', 0],
      ['billing_duplicate_charge', null, 1],
      ['security_compromised_account', 'm', 0],
    ]);
    const onlyRepeated = (await http().get('/stats').set(bearer(labReader)).query({ repeated_test_play: 'true' }).expect(200)).body;
    expect(onlyRepeated).toMatchObject({ repeated_test_plays: 3, tasks: [{ task_id: 'billing_duplicate_charge', count: 3, repeated_test_plays: 3 }] });
    const none = (await http().get('/stats').set(bearer(labReader)).query({ repeated_test_play: 'false' }).expect(200)).body;
    expect(none.repeated_test_plays).toBe(0);
    expect(none.tasks.reduce((n: number, t: any) => n + t.count, 0)).toBe(10);
  });

  it("is counted per tenant: another tenant's plays of the same cell are its own, and the admin key sees both", async () => {
    const admin = (await http().get('/episodes').set(asAdmin).query({ repeated_test_play: 'true', limit: 200 }).expect(200)).body.items.map((e: any) => e.episode_id);
    expect(admin).toEqual(expect.arrayContaining(ids(['other tenant again', 'again'])));
    expect(admin).not.toEqual(expect.arrayContaining(ids(['other tenant'])));
    const theirs = (await http().get('/stats').set(asAdmin).query({ tenant: 'other-lab' }).expect(200)).body;
    expect(theirs.repeated_test_plays).toBe(1);
  });

  it('a bad value is a 422 with the error body naming the field; an agent key may not filter (403)', async () => {
    for (const value of ['yes', '1', 'TRUE', '']) {
      const refused = (await http().get('/episodes').set(bearer(labReader)).query({ repeated_test_play: value }).expect(422)).body;
      expect(refused).toMatchObject({
        statusCode: 422,
        code: 'VALIDATION_FAILED',
        details: [{ field: 'repeated_test_play', message: 'repeated_test_play must be one of: true, false' }],
        request_id: expect.any(String),
      });
    }
    await http().get('/stats').set(bearer(labReader)).query({ repeated_test_play: 'maybe' }).expect(422);
    expect((await http().get('/episodes').set(bearer(a1)).query({ repeated_test_play: 'true' }).expect(403)).body.code).toBe('FORBIDDEN');
  });
});
