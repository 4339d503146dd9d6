import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import type { Action } from '../src/engine/actions';
import type { Task } from '../src/engine/task.schema';
import { latestFamily } from '../src/families';
import { privateSeed, privateSplitKeyOf } from '../src/tasks/private-split';
import { referenceRun } from '../tools/validity/solvers';
import { databaseDigest } from './support/database-digest';
import { ADMIN_KEY, CHAIN_KEY, bearer, tenantWithKey } from './support/tenants';
import { startTestApp } from './support/test-app';
import { withDirect } from './support/direct-database';
import { openWsClient } from './support/ws-client';

/*
 * The private test split (docs/evaluation.md, "The private test split"): a reset with split "private" draws a test
 * seed's instance from the seed mixed with the server's PRIVATE_SPLIT_KEY, on every transport. It is another instance
 * than the public one of that seed; neither the derived seed nor the secret is in any answer; an agent key sees none
 * of its grading; a reader sees the split source and the key id; bad combinations are 422 and change nothing; and the
 * episode verifies, after a rotation too, and says plainly when the key it names is gone.
 */

const SECRET = 'private-split-secret-A-0123456789abcdef0123';
const NEWER_SECRET = 'private-split-secret-B-fedcba9876543210fedc';
const KEY_ID = privateSplitKeyOf(SECRET).id;
const NEWER_KEY_ID = privateSplitKeyOf(NEWER_SECRET).id;
const keysRequired = { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY };

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let host: string;
let agent: string;
let reader: string;
/** Every body an answer carried in this file, for the checks that no derived seed and no secret was ever sent. */
const answered: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp(undefined, { ...keysRequired, PRIVATE_SPLIT_KEY: SECRET });
  await ctx.app.listen(0, '127.0.0.1');
  host = `127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  ({ key: agent, readerKey: reader } = await tenantWithKey(ctx.http, 'private-lab'));
});
afterAll(() => ctx.app.close());

/** A request whose answer is kept for the leak checks. */
async function call(server: any, method: 'get' | 'post', path: string, key: string, body?: object, status = 200): Promise<any> {
  const req = method === 'get' ? request(server).get(path) : request(server).post(path).send(body ?? {});
  const res = await req.set(bearer(key)).expect(status);
  answered.push(res.text);
  return /json/.test(res.headers['content-type'] ?? '') && !/ndjson/.test(res.headers['content-type'] ?? '') ? res.body : res.text;
}
const post = (path: string, key: string, body: object, status = 200) => call(ctx.http, 'post', path, key, body, status);
const get = (path: string, key: string, status = 200) => call(ctx.http, 'get', path, key, undefined, status);

/** The instance a private-split episode of this seed runs under `secret` (what the test may know; no client can). */
function privateInstance(taskId: string, seed: number, secret = SECRET): Task {
  return latestFamily(taskId)!.generate(privateSeed(privateSplitKeyOf(secret), taskId, seed));
}
const publicInstance = (taskId: string, seed: number): Task => latestFamily(taskId)!.generate(seed);
/** The reference solver's actions on an instance (they score 1.0 there, and fail on another instance). */
const solve = (task: Task, seed: number): Action[] => referenceRun(task, seed).actions;

/** Every grading value in an answer is withheld (null scores and breakdowns, rewards 0 or null). */
function expectWithheld(body: unknown, path = ''): void {
  if (body === null || typeof body !== 'object') return;
  for (const [key, value] of Object.entries(body)) {
    const at = `${path}.${key}`;
    if (key === 'search_results') continue;
    if (['score', 'score_after', 'components', 'penalties', 'reply_details'].includes(key)) expect([at, value]).toEqual([at, null]);
    else if (key === 'reward') expect([at, value === 0 || value === null]).toEqual([at, true]);
    else expectWithheld(value, at);
  }
}

/** Plays `actions` on an episode over HTTP with `key`; returns every answer. */
async function play(id: string, actions: Action[], key = agent): Promise<any[]> {
  const seen: any[] = [];
  for (const action of actions) seen.push(await post('/step', key, { episode_id: id, action }));
  return seen;
}

describe('HTTP', () => {
  it('draws another instance than the public one of the seed, withholds its grading from the agent key, and shows the reader its split and key id', async () => {
    const taskId = 'billing_duplicate_charge';
    const started = await post('/reset', agent, { task_id: taskId, seed: 0, split: 'private' });
    expect(started.info).toMatchObject({ variant: 'generated', split: 'test', split_source: 'private', split_key_id: KEY_ID, seed: 0, feedback: 'final', score: null });
    const publicStart = await post('/reset', agent, { task_id: taskId, seed: 0 });
    expect(publicStart.info).toMatchObject({ split: 'test', split_source: 'public', split_key_id: null, seed: 0 });
    // Other tickets, customers and amounts: the observation of the private instance is not the public one's.
    expect(JSON.stringify(started.observation.inbox)).not.toBe(JSON.stringify(publicStart.observation.inbox));
    const privateTask = privateInstance(taskId, 0);
    expect(privateTask.answer_key.target_ticket_id).not.toBe(publicInstance(taskId, 0).answer_key.target_ticket_id);

    // The private instance's solution scores 1.0 there (as the reader sees); the agent key is shown nothing of it.
    const id = started.episode_id;
    const seen = [started, ...(await play(id, solve(privateTask, 0)))];
    expect(seen.at(-1)).toMatchObject({ done: true, reward: 0, info: { score: null, status: 'resolved' } });
    seen.push(await get(`/state/${id}`, agent), await post('/grader', agent, { episode_id: id }));
    expect(seen.at(-2)).toMatchObject({ split_source: 'private', split_key_id: KEY_ID, score: null, components: null });
    expect(seen.at(-1)).toMatchObject({ score: null, reply_details: null, penalties: null });
    for (const body of seen) expectWithheld(body);
    expect((await post('/grader', reader, { episode_id: id })).score).toBe(1);
    for (const path of [`/state/${id}`, `/episodes/${id}`]) {
      expect([path, await get(path, reader)]).toEqual([path, expect.objectContaining({ split: 'test', split_source: 'private', split_key_id: KEY_ID, score: 1 })]);
    }
    const exported = (await get('/episodes/export', reader)).trim().split('\n').map((line: string) => JSON.parse(line));
    expect(exported.find((e: any) => e.episode_id === id)).toMatchObject({ split_source: 'private', split_key_id: KEY_ID, seed: 0 });
    expect(exported.find((e: any) => e.episode_id === publicStart.episode_id)).toMatchObject({ split_source: 'public', split_key_id: null });

    // The public instance's solution does not solve the private one.
    const other = (await post('/reset', agent, { task_id: taskId, seed: 0, split: 'private' })).episode_id;
    await play(other, solve(publicInstance(taskId, 0), 0));
    // (Read on the audit route: the grade of a "final" episode still running is withheld from everyone.)
    expect((await get(`/episodes/${other}`, reader)).score).toBeLessThan(1);
  });

  it('the public test split is unchanged: the same seed draws the published instance, and its solution scores 1.0', async () => {
    const taskId = 'security_compromised_account';
    const id = (await post('/reset', agent, { task_id: taskId, seed: 5, split: 'test' })).episode_id;
    await play(id, solve(publicInstance(taskId, 5), 5));
    expect(await post('/grader', reader, { episode_id: id })).toMatchObject({ score: 1 });
    expect(await get(`/episodes/${id}`, reader)).toMatchObject({ split_source: 'public', split_key_id: null });
  });

  it('without a seed, split "private" draws a test seed; canonical and train episodes report no private source', async () => {
    for (let i = 0; i < 5; i++) {
      const info = (await post('/reset', agent, { task_id: 'logistics_missing_order_vip', split: 'private' })).info;
      expect(info).toMatchObject({ split: 'test', split_source: 'private', split_key_id: KEY_ID, feedback: 'final' });
      expect(info.seed % 5).toBe(0);
    }
    expect((await post('/reset', agent, { variant: 'canonical' })).info).toMatchObject({ split: null, split_source: null, split_key_id: null });
    expect((await post('/reset', agent, { seed: 3 })).info).toMatchObject({ split: 'train', split_source: 'public', split_key_id: null });
  });

  it('refuses bad combinations with 422 naming the fields, and changes nothing', async () => {
    const refusals: [object, string[]][] = [
      [{ split: 'private', variant: 'canonical' }, ['variant', 'split']],
      [{ split: 'private', seed: 3 }, ['seed', 'split']],
      [{ split: 'private', seed: 10, feedback: 'dense' }, ['seed', 'feedback']],
      [{ split: 'private', feedback: 'dense' }, ['split', 'feedback']],
      [{ split: 'secret' }, ['split']],
    ];
    const before = await databaseDigest(ctx.databaseUrl);
    for (const [body, fields] of refusals) {
      const refused = await post('/reset', agent, body, 422);
      expect([body, refused.code, refused.details.map((d: any) => d.field)]).toEqual([body, 'VALIDATION_FAILED', fields]);
    }
    expect(await databaseDigest(ctx.databaseUrl)).toBe(before);
  });

  it('a server without a private split refuses split "private" with 422 on every transport, and says so', async () => {
    const plain = await startTestApp(undefined, keysRequired);
    try {
      await plain.app.listen(0, '127.0.0.1');
      const { key } = await tenantWithKey(plain.http, 'plain-lab');
      // The key's first use records its last-used time; the refusals below must change nothing else.
      await request(plain.http).get('/state').set(bearer(key)).expect(404);
      const before = await databaseDigest(plain.databaseUrl);
      const refused = await call(plain.http, 'post', '/reset', key, { task_id: 'billing_duplicate_charge', seed: 0, split: 'private' }, 422);
      expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'split', message: expect.stringMatching(/no private test split \(PRIVATE_SPLIT_KEY is not set\)/) }] });
      const port = (plain.app.getHttpServer().address() as AddressInfo).port;
      const client = await openWsClient(`ws://127.0.0.1:${port}/ws`, bearer(key));
      try {
        const reply = await client.ask({ type: 'reset', data: { split: 'private' } });
        expect(reply).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR', message: expect.stringMatching(/no private test split/) } });
      } finally {
        client.close();
      }
      const rpc = (await request(plain.http).post('/mcp').set(bearer(key)).send({ jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: { split: 'private' } }).expect(200)).body;
      expect(rpc.error).toMatchObject({ code: -32602, data: { details: [{ field: 'split' }] } });
      expect(await databaseDigest(plain.databaseUrl)).toBe(before);
      // Its document says so too: split "private" is typed, and refused by this server's instance rules.
      const document = (await request(plain.http).get('/openapi.json').expect(200)).body;
      const reset = document.components.schemas.ResetRequestDto;
      expect(document.components.schemas.Split.enum).toEqual(['train', 'test', 'private']);
      expect(reset.not.anyOf).toContainEqual({ type: 'object', required: ['split'], properties: { split: { enum: ['private'] } } });
      const served = (await request(ctx.http).get('/openapi.json').expect(200)).body.components.schemas.ResetRequestDto;
      expect(served.not.anyOf).not.toContainEqual({ type: 'object', required: ['split'], properties: { split: { enum: ['private'] } } });
    } finally {
      await plain.app.close();
    }
  });
});

it('/ws: a reset message with split "private" draws the private instance; nothing graded reaches the agent key', async () => {
  const taskId = 'security_compromised_account';
  const client = await openWsClient(`ws://${host}/ws`, bearer(agent));
  const seen: any[] = [];
  try {
    const started = await client.ask({ type: 'reset', data: { task_id: taskId, seed: 15, split: 'private' } });
    expect(started.data.info).toMatchObject({ split: 'test', split_source: 'private', split_key_id: KEY_ID, feedback: 'final', score: null });
    seen.push(started);
    for (const action of solve(privateInstance(taskId, 15), 15)) seen.push(await client.ask({ type: 'step', data: action }));
    seen.push(await client.ask({ type: 'state' }));
    expect(seen.at(-1).data).toMatchObject({ status: 'resolved', split_source: 'private', score: null, components: null });
    const refused = await client.ask({ type: 'reset', data: { task_id: taskId, seed: 16, split: 'private' } });
    expect(refused).toMatchObject({ type: 'error', data: { code: 'VALIDATION_ERROR' } });
    seen.push(refused);
    for (const message of seen.slice(0, -1)) expect(message.type).not.toBe('error');
    for (const message of seen) expectWithheld(message);
    answered.push(...seen.map((message) => JSON.stringify(message)));
    expect((await post('/grader', reader, { episode_id: started.data.episode_id })).score).toBe(1);
  } finally {
    client.close();
  }
});

it('/mcp: tools on a private episode, and an OpenEnv session created with split "private", withhold everything graded', async () => {
  const taskId = 'logistics_missing_order_vip';
  const id = (await post('/reset', agent, { task_id: taskId, seed: 20, split: 'private' })).episode_id;
  const client = new Client({ name: 'private-eval', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://${host}/mcp`), { requestInit: { headers: { ...bearer(agent), 'x-episode-id': id } } }));
  const seen: unknown[] = [];
  try {
    for (const { type, ...args } of solve(privateInstance(taskId, 20), 20)) {
      const result = await client.callTool({ name: type, arguments: args });
      expect(result.isError).toBe(false);
      seen.push(result);
    }
    expect((seen.at(-1) as any).structuredContent).toMatchObject({ done: true, reward: 0, info: { score: null, status: 'resolved' } });
  } finally {
    await client.close();
  }
  expect((await post('/grader', reader, { episode_id: id })).score).toBe(1);

  const rpc = async (method: string, params: Record<string, unknown>) => (await post('/mcp', agent, { jsonrpc: '2.0', id: 1, method, params })) as any;
  const created = (await rpc('openenv/session/create', { task_id: 'billing_duplicate_charge', seed: 25, split: 'private' })).result;
  expect(created).toMatchObject({ info: { split: 'test', split_source: 'private', split_key_id: KEY_ID, score: null } });
  seen.push(created);
  for (const { type, ...args } of solve(privateInstance('billing_duplicate_charge', 25), 25)) {
    seen.push((await rpc('tools/call', { session_id: created.session_id, name: type, arguments: args })).result);
  }
  expect((seen.at(-1) as any).data).toMatchObject({ done: true, reward: 0, info: { score: null } });
  const refused = await rpc('openenv/session/create', { task_id: 'billing_duplicate_charge', seed: 25, split: 'private', feedback: 'dense' });
  expect(refused.error).toMatchObject({ code: -32602, data: { details: [{ field: 'seed' }, { field: 'feedback' }] } });
  for (const result of seen) expectWithheld(result);
  answered.push(...seen.map((result) => JSON.stringify(result)));
  expect((await post('/grader', reader, { episode_id: created.episode_id })).score).toBe(1);
});

describe('verification', () => {
  const verify = (server: any, id: string, status = 200) => call(server, 'get', `/episodes/${id}/verify`, reader, undefined, status);

  it('a private episode verifies (chain, replay, ledger), names its key id, and relabelling its split breaks the chain', async () => {
    const id = (await post('/reset', agent, { task_id: 'billing_duplicate_charge', seed: 30, split: 'private' })).episode_id;
    await play(id, solve(privateInstance('billing_duplicate_charge', 30), 30));
    expect(await verify(ctx.http, id)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true, split_source: 'private', split_key_id: KEY_ID, replayed_score: 1 });

    await withDirect(ctx.databaseUrl, async (db) => {
      for (const [change, undo] of [
        ["split_source = 'public', split_key_id = NULL", `split_source = 'private', split_key_id = '${KEY_ID}'`],
        ["split_key_id = 'ps_000000000000'", `split_key_id = '${KEY_ID}'`],
      ]) {
        await db.run(`UPDATE episodes SET ${change} WHERE id = ?`, [id]);
        // The chain's start commits to the metadata, so its first row no longer links (1); the ledger recorded the
        // split at creation, so it is caught there (0) too.
        expect([change, await verify(ctx.http, id)]).toEqual([change, expect.objectContaining({ chain_ok: false, ledger_ok: false, first_bad_index: 0 })]);
        await db.run(`UPDATE episodes SET ${undo} WHERE id = ?`, [id]);
      }
    });
    expect(await verify(ctx.http, id)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
  });

  it('after a rotation with the old key retired it still verifies and new episodes draw under the new key; with the old key gone it says it cannot verify', async () => {
    const taskId = 'security_compromised_account';
    const id = (await post('/reset', agent, { task_id: taskId, seed: 35, split: 'private' })).episode_id;
    await play(id, solve(privateInstance(taskId, 35), 35));
    const retired = join(mkdtempSync(join(tmpdir(), 'supportdesk-retired-')), 'private-split-retired');
    writeFileSync(retired, `# rotated\n${SECRET}\n`, { mode: 0o600 });

    const rotated = await startTestApp(ctx.databaseUrl, { ...keysRequired, PRIVATE_SPLIT_KEY: NEWER_SECRET, PRIVATE_SPLIT_RETIRED_KEYS_FILE: retired });
    try {
      expect(await verify(rotated.http, id)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true, split_key_id: KEY_ID });
      const fresh = await call(rotated.http, 'post', '/reset', agent, { task_id: taskId, seed: 35, split: 'private' });
      expect(fresh.info).toMatchObject({ split_source: 'private', split_key_id: NEWER_KEY_ID, seed: 35 });
      for (const action of solve(privateInstance(taskId, 35, NEWER_SECRET), 35)) await call(rotated.http, 'post', '/step', agent, { episode_id: fresh.episode_id, action });
      expect(await call(rotated.http, 'post', '/grader', reader, { episode_id: fresh.episode_id })).toMatchObject({ score: 1 });
      expect(await verify(rotated.http, fresh.episode_id)).toMatchObject({ chain_ok: true, replay_ok: true, split_key_id: NEWER_KEY_ID });
      // The old episode still reads and grades with the retired key.
      expect(await call(rotated.http, 'post', '/grader', reader, { episode_id: id })).toMatchObject({ score: 1 });
    } finally {
      await rotated.app.close();
    }

    const forgetful = await startTestApp(ctx.databaseUrl, { ...keysRequired, PRIVATE_SPLIT_KEY: NEWER_SECRET });
    try {
      const report = await verify(forgetful.http, id);
      expect(report).toMatchObject({ chain_ok: true, ledger_ok: true, replay_ok: false, replayed_score: null, split_key_id: KEY_ID, first_bad_index: 0 });
      expect(report.problem).toMatch(new RegExp(`cannot verify the replay: .*private test split with key ${KEY_ID}, which this server does not hold \\(add it to PRIVATE_SPLIT_RETIRED_KEYS_FILE\\)`));
      for (const [method, path, body] of [
        ['get', `/state/${id}`, undefined],
        ['get', `/episodes/${id}`, undefined],
        ['get', `/episodes/${id}/rescore`, undefined],
        ['post', '/grader', { episode_id: id }],
      ] as const) {
        const refused = await call(forgetful.http, method, path, reader, body, 409);
        expect([path, refused]).toEqual([path, expect.objectContaining({ code: 'CONFLICT', message: expect.stringMatching(new RegExp(`key ${KEY_ID}, which this server does not hold`)) })]);
      }
    } finally {
      await forgetful.app.close();
    }
  });
});

it('a private play of a test seed is its own run cell: not a repeated play of the public one', async () => {
  const cell = { task_id: 'billing_duplicate_charge', seed: 40, agent: 'cell-agent', run_label: 'cell-run' };
  const first = (await post('/reset', agent, cell)).episode_id;
  const privately = (await post('/reset', agent, { ...cell, split: 'private' })).episode_id;
  const again = (await post('/reset', agent, { ...cell, split: 'private' })).episode_id;
  const repeated = (await get('/episodes?repeated_test_play=true&agent=cell-agent', reader)).items.map((e: any) => e.episode_id);
  expect(repeated).toEqual([again]);
  expect(repeated).not.toContain(privately);
  expect(repeated).not.toContain(first);
});

it('no answer ever carried a derived seed or a private-split secret', () => {
  expect(answered.length).toBeGreaterThan(50);
  const text = answered.join('\n');
  for (const secret of [SECRET, NEWER_SECRET, CHAIN_KEY]) expect(text).not.toContain(secret);
  for (const [taskId, seeds] of [
    ['billing_duplicate_charge', [0, 25, 30, 40]],
    ['security_compromised_account', [15, 35]],
    ['logistics_missing_order_vip', [20]],
  ] as const) {
    for (const seed of seeds) {
      for (const secret of [SECRET, NEWER_SECRET]) {
        const derived = String(privateSeed(privateSplitKeyOf(secret), taskId, seed));
        expect([taskId, seed, new RegExp(`(?<![0-9])${derived}(?![0-9])`).test(text)]).toEqual([taskId, seed, false]);
      }
    }
  }
});
