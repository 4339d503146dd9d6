import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import request from 'supertest';
import { noToolCallsWarning, runAgent, type AgentRunOptions } from '../tools/agent/agent-runner';
import { formatRunTable, READER_KEY_HINT } from '../tools/agent/report-table';
import type { Run } from '../tools/agent/runs-api';
import type { Action } from '../src/engine/actions';
import { SOLUTIONS } from './fixtures/solutions';
import { COMPLETION_TOKENS, promptTokensFor, startScriptedModel } from './support/scripted-model';
import { startTestApp } from './support/test-app';
import { ADMIN_KEY, CHAIN_KEY, bearer, tenantWithKey } from './support/tenants';

/*
 * The agent runner against the real app (keys required: the runner plays with an agent key, the results are read
 * with a reader key) and a scripted OpenAI-compatible model, reached through the official openai package.
 */

const FAMILIES = ['billing_duplicate_charge', 'security_compromised_account', 'logistics_missing_order_vip'];

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let url: string;
let agentKey: string;
let readerKey: string;

beforeAll(async () => {
  ctx = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
  await ctx.app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
  ({ key: agentKey, readerKey } = await tenantWithKey(ctx.http, 'runner-lab'));
});
afterAll(() => ctx.app.close());

/** What the runner is given in every test: the server, the keys, a sink for stdout and stderr. */
function runnerOptions(model: { url: string }, extra: Partial<AgentRunOptions> & Pick<AgentRunOptions, 'run'>) {
  const log: string[] = [];
  const stderr: string[] = [];
  const options: AgentRunOptions = {
    url,
    agentKey,
    model: { baseURL: model.url, name: 'scripted', maxRetries: 2, timeoutMs: 10_000 },
    concurrency: 3,
    log: (line) => log.push(line),
    stderr: { write: (text: string) => stderr.push(text), isTTY: false },
    retry: { baseDelayMs: 1 },
    ...extra,
  };
  return { options, log, stderr };
}

async function cellsOf(runId: string, key = agentKey): Promise<any[]> {
  return (await request(ctx.http).get(`/runs/${runId}/cells`).query({ limit: 500 }).set(bearer(key)).expect(200)).body.cells;
}

/**
 * The fixture's model, on the canonical instances: billing always solved; security solved in its first two
 * conversations of each instance and not in the third (priority set low); logistics always resolved the standard
 * (wrong) way. Conversation n of an instance is its (n-1)-th trial played, whatever order the cells come in.
 */
function fixtureScript(taskId: string, conversation: number, step: number): Action | null {
  const actions = SOLUTIONS[taskId].actions;
  if (taskId === 'security_compromised_account' && conversation === 3 && step === 2) return { type: 'set_priority', priority: 'low' };
  if (taskId === 'logistics_missing_order_vip' && step === actions.length - 1) return { type: 'resolve_ticket', resolution: 'carrier_trace_opened' };
  return actions[step] ?? null;
}

it('fills a run created over HTTP; the reader key shows pass^k as computed by hand; the usage lands on the cells', async () => {
  const created = await request(ctx.http)
    .post('/runs')
    .set(bearer(agentKey))
    .send({ name: 'fixture', agent: 'llm:scripted-fixture', model: 'scripted-fixture', families: FAMILIES, split: 'canonical', seeds: [0, 1], trials: 3, feedback: 'dense', success_threshold: 1 })
    .expect(201);
  const runId = created.body.run_id as string;
  expect(created.body.progress).toMatchObject({ cells: 18, pending: 18, finished: 0 });

  // One 429 first: the SDK retries it (Retry-After: 0).
  const model = await startScriptedModel(fixtureScript, { failFirst: 1 });
  try {
    const { options, log } = runnerOptions(model, { run: { resume: runId }, model: { baseURL: model.url, name: null }, readerKey });
    const outcome = await runAgent(options);
    expect(outcome).toMatchObject({ ending: 'done', filled: 18, failedAttempts: 0, episodesWithoutToolCalls: 0 });
    expect(outcome.run.status).toBe('complete');
    // Each instance (family, seed) was played exactly three times: six instances, told apart by their inboxes.
    expect([...model.conversations.values()]).toEqual([3, 3, 3, 3, 3, 3]);

    /*
     * By hand. pass^k of an instance is C(c, k) / C(3, k) for its c successes (score >= 1) in 3 trials; a family's is
     * the mean over its 2 seeds, the run's the mean over families.
     *   billing   c = 3 on both seeds: 1, 1, 1
     *   security  c = 2 on both seeds: C(2,1)/C(3,1) = 2/3, C(2,2)/C(3,2) = 1/3, C(2,3)/C(3,3) = 0
     *   logistics c = 0 on both seeds: 0, 0, 0
     *   run: k=1 (1 + 2/3 + 0)/3 = 5/9, k=2 (1 + 1/3 + 0)/3 = 4/9, k=3 (1 + 0 + 0)/3 = 1/3
     * Flip rate (seeds whose trials disagree): billing 0/2, security 2/2, logistics 0/2.
     */
    const results = outcome.run.results!;
    const estimates = (group: { pass_hat_k: { k: number; estimate: number | null }[] }) => group.pass_hat_k.map((p) => [p.k, round(p.estimate!)]);
    expect(results.success_threshold).toBe(1);
    expect(results.overall.cells).toBe(18);
    expect(estimates(results.overall)).toEqual([[1, round(5 / 9)], [2, round(4 / 9)], [3, round(1 / 3)]]);
    expect(Object.fromEntries(results.families.map((f) => [f.task_id, [estimates(f), f.flip_rate]]))).toEqual({
      billing_duplicate_charge: [[[1, 1], [2, 1], [3, 1]], 0],
      security_compromised_account: [[[1, round(2 / 3)], [2, round(1 / 3)], [3, 0]], 1],
      logistics_missing_order_vip: [[[1, 0], [2, 0], [3, 0]], 0],
    });
    for (const p of results.overall.pass_hat_k) expect(p.low! <= p.estimate! && p.estimate! <= p.high!).toBe(true);
    const table = formatRunTable(outcome.run);
    expect(table).toContain('pass^1 = 0.556 [');
    expect(table).toContain('pass^3 = 0.333 [');
    expect(table).toMatch(/^security_compromised_account\s+6\s+\S+ \[\S+, \S+\]\s+0\.667\s+0\.333\s+0\.000\s+1\.000$/m);

    // Usage: every completion reported promptTokensFor(messages) and COMPLETION_TOKENS. An episode of n steps asked
    // n times, with 2, 4, …, 2n messages: 100n + 10·n(n+1) prompt tokens and 5n completion tokens.
    const cells = await cellsOf(runId);
    expect(cells).toHaveLength(18);
    for (const cell of cells) {
      const n = SOLUTIONS[cell.task_id].actions.length;
      const prompt = Array.from({ length: n }, (_, i) => promptTokensFor(2 * (i + 1))).reduce((a, b) => a + b, 0);
      expect(prompt).toBe(100 * n + 10 * n * (n + 1));
      expect([cell.task_id, cell.status, cell.attempts, cell.input_tokens, cell.output_tokens]).toEqual([cell.task_id, 'finished', 1, prompt, COMPLETION_TOKENS * n]);
      // An agent key is never shown a run's scores.
      expect(cell.score).toBeNull();
    }
    expect(cells.reduce((sum, c) => sum + c.input_tokens, 0)).toBe(model.served.prompt_tokens);
    expect(results.totals).toMatchObject({ input_tokens: model.served.prompt_tokens, output_tokens: model.served.completion_tokens });

    // stdout: 18 episodes in the OpenEnv format, each one's lines together although three ran at once.
    const starts = log.flatMap((line, i) => (line.startsWith('[START]') ? [i] : []));
    expect(starts).toHaveLength(18);
    for (const at of starts) {
      const end = log.findIndex((line, i) => i > at && line.startsWith('[END]'));
      expect(log.slice(at + 1, end).every((line) => line.startsWith('[STEP]'))).toBe(true);
    }
    expect(log.filter((l) => l.startsWith('[END] success=true'))).toHaveLength(6 + 4);
    expect(log[0]).toMatch(/^\[START\] task=\w+ env=supportdesk model=scripted-fixture$/);
    // The episodes are the run's, under its agent.
    const episodes = (await request(ctx.http).get('/episodes').query({ agent: 'llm:scripted-fixture', limit: 50 }).set(bearer(readerKey)).expect(200)).body.items;
    expect(episodes).toHaveLength(18);
  } finally {
    await model.close();
  }
});

it('Ctrl-C part-way: the in-flight episodes are reported interrupted; resuming with the run id fills every cell exactly once', async () => {
  // The user presses Ctrl-C as the model gets its 15th request: the first two cells (billing, six steps each) took
  // twelve, so one of them is filled, and the episode that sent the 15th is in flight (its answer is 15 ms away).
  const interrupt = new AbortController();
  const model = await startScriptedModel((taskId, _conversation, step) => SOLUTIONS[taskId].actions[step] ?? null, {
    delayMs: 15,
    onRequest: (count) => count === 15 && interrupt.abort(),
  });
  try {
    const first = runnerOptions(model, {
      run: { create: { name: 'interrupted', families: FAMILIES, split: 'canonical', seeds: [0, 1], trials: 2, feedback: 'dense' } },
      model: { baseURL: model.url, name: 'scripted-interrupted' },
      concurrency: 2,
      signal: interrupt.signal,
    });
    const stopped = await runAgent(first.options);
    expect(stopped.ending).toBe('interrupted');
    expect(stopped.filled).toBeGreaterThanOrEqual(1);
    expect(stopped.failedAttempts).toBeGreaterThanOrEqual(1);
    const runId = stopped.run.run_id;
    expect(stopped.run).toMatchObject({ status: 'open', agent: 'llm:scripted-interrupted', model: 'scripted-interrupted' });
    expect(stderrOf(first)).toContain('(interrupted); it will be filled again');
    // No reader key: the partial table says the scores are withheld from the agent key.
    expect(formatRunTable(stopped.run)).toContain(`scores withheld: `);

    const before = await cellsOf(runId);
    expect(before.filter((c) => c.status === 'finished')).toHaveLength(stopped.filled);
    const failed = before.filter((c) => c.status === 'failed');
    expect(failed).toHaveLength(stopped.failedAttempts);
    for (const cell of failed) expect(cell).toMatchObject({ termination: 'infrastructure_error', attempts: 1 });
    expect(before.filter((c) => c.status === 'active')).toHaveLength(0);

    const resumed = runnerOptions(model, { run: { resume: runId }, model: { baseURL: model.url, name: null }, concurrency: 2, readerKey });
    const done = await runAgent(resumed.options);
    expect(done).toMatchObject({ ending: 'done', failedAttempts: 0 });
    expect(stopped.filled + done.filled).toBe(12);
    expect(done.run.status).toBe('complete');

    // Every cell filled exactly once: finished, by one episode; the failed attempts are the only second ones.
    const after = await cellsOf(runId);
    expect(after).toHaveLength(12);
    expect(after.every((c) => c.status === 'finished' && c.termination === 'resolved')).toBe(true);
    expect(after.reduce((sum, c) => sum + c.attempts, 0)).toBe(12 + stopped.failedAttempts);
    expect(new Set(after.map((c) => c.episode_id)).size).toBe(12);
    const episodes = (await request(ctx.http).get('/episodes').query({ agent: 'llm:scripted-interrupted', limit: 50 }).set(bearer(readerKey)).expect(200)).body.items;
    expect(episodes).toHaveLength(12 + stopped.failedAttempts);
    const counted = new Set(after.map((c) => c.episode_id));
    expect(episodes.filter((e: any) => counted.has(e.episode_id)).every((e: any) => e.status === 'resolved')).toBe(true);
    // The results count each cell once: twelve cells, every canonical solution a success.
    expect(done.run.results!.overall).toMatchObject({ cells: 12, pass_hat_k: [{ k: 1, estimate: 1 }, { k: 2, estimate: 1 }] });
  } finally {
    await model.close();
  }
});

it('npm run agent: SIGINT reports the episode in flight, prints the partial table and the command that resumes, exits 130', async () => {
  // The model answers two requests, then stalls: the first episode is in flight when the signal comes.
  const model = await startScriptedModel((taskId, _c, step) => SOLUTIONS[taskId].actions[step] ?? null, { hangAfter: 2 });
  try {
    const child = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(__dirname, '..', 'tools', 'agent', 'agent.cli.ts'),
        '--url', url, '--model', 'scripted-cli', '--model-url', model.url, '--tasks', 'billing_duplicate_charge', '--split', 'canonical', '--trials', '2', '--concurrency', '1'],
      {
        cwd: join(__dirname, '..'),
        env: { ...process.env, TS_NODE_PROJECT: 'tsconfig.jest.json', SUPPORTDESK_API_KEY: agentKey, SUPPORTDESK_READER_KEY: readerKey, API_BASE_URL: '', MODEL_NAME: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waitFor(() => model.hanging() === 1, 45_000);
    child.kill('SIGINT');
    expect(await exited).toBe(130);

    const runId = /created run (run_\w+)/.exec(stderr)![1];
    expect(stderr).toContain('interrupted: reporting the episodes in flight (Ctrl-C again to exit at once)');
    expect(stderr).toContain(`resume with:\n  npm run agent -- --run ${runId} --url ${url} --model-url ${model.url} --concurrency 1`);
    // The partial table, read with the reader key: nothing finished yet.
    expect(stdout).toContain(`run ${runId} (scripted-cli `);
    expect(stdout).toContain('cells: 0/2 finished; 1 pending, 1 failed');
    // The interrupted episode's cell may be filled again.
    const cells = await cellsOf(runId);
    expect(cells.map((c) => [c.status, c.termination, c.attempts, c.input_tokens])).toEqual([
      ['failed', 'infrastructure_error', 1, promptTokensFor(2) + promptTokensFor(4)],
      ['pending', null, 0, null],
    ]);
  } finally {
    await model.close();
  }
});

it('warns when the model answers without calling a tool, gives those cells back, and stops when it never does', async () => {
  const model = await startScriptedModel(() => null);
  try {
    const { options, stderr, log } = runnerOptions(model, {
      run: { create: { name: 'no-tools', families: ['billing_duplicate_charge'], split: 'canonical', seed_count: 2, trials: 1 } },
      model: { baseURL: model.url, name: 'scripted-prose' },
      concurrency: 1,
      maxConsecutiveFailures: 2,
    });
    const outcome = await runAgent(options);
    expect(outcome).toMatchObject({ ending: 'stopped', filled: 0, failedAttempts: 2, episodesWithoutToolCalls: 2, stopped: { endpoint: true } });
    const text = stderr.join('');
    expect(text).toMatch(/warning: the model answered without calling a tool in billing_duplicate_charge seed [01] trial 0/);
    expect(text).toContain(noToolCallsWarning(2));
    expect(text).toContain('the model never called a tool in 2 episodes — does the endpoint support tool calling?');
    expect(log).toEqual([]);
    // Two attempts (at either cell: a reset takes one of the first unfilled cells at random), both failed, three turns each.
    const cells = await cellsOf(outcome.run.run_id);
    expect(cells.reduce((n, c) => n + c.attempts, 0)).toBe(2);
    for (const cell of cells) expect([cell.status, cell.termination]).toEqual(cell.attempts === 0 ? ['pending', null] : ['failed', 'infrastructure_error']);
    expect(model.requests).toHaveLength(6);
  } finally {
    await model.close();
  }
});

it('an unreachable model endpoint: each attempt is reported with the endpoint named, and the runner stops', async () => {
  const nowhere = `http://127.0.0.1:${await closedPort()}/v1`;
  const { options } = runnerOptions(
    { url: nowhere },
    {
      run: { create: { name: 'unreachable', families: ['billing_duplicate_charge'], split: 'canonical', seed_count: 1, trials: 1 } },
      model: { baseURL: nowhere, name: 'nowhere', maxRetries: 0 },
      concurrency: 1,
      maxConsecutiveFailures: 2,
    },
  );
  const outcome = await runAgent(options);
  expect(outcome.ending).toBe('stopped');
  expect(outcome.stopped!.reason).toBe(`2 attempts in a row failed; the last: the model endpoint is unreachable (${nowhere}): ECONNREFUSED, 1 attempt`);
  expect((await cellsOf(outcome.run.run_id)).map((c) => [c.status, c.attempts])).toEqual([['failed', 2]]);
});

it('a test run played with an agent key: [END] says withheld, the table says the scores are withheld, a reader key reads them', async () => {
  // Resolves at once: a score well under 1 on every instance, so pass^k is 0 for every k.
  const model = await startScriptedModel(() => ({ type: 'resolve_ticket', resolution: 'information_provided' }));
  try {
    const { options, log } = runnerOptions(model, {
      run: { create: { name: 'test-split', families: ['billing_duplicate_charge'], split: 'test', seed_count: 2, trials: 2, feedback: 'final' } },
      model: { baseURL: model.url, name: 'scripted-test' },
    });
    const outcome = await runAgent(options);
    expect(outcome.ending).toBe('done');
    expect(outcome.run.results).toBeNull();
    expect(formatRunTable(outcome.run)).toContain(`scores withheld: ${outcome.run.results_withheld}; ${READER_KEY_HINT}`);
    const ends = log.filter((line) => line.startsWith('[END]'));
    expect(ends).toHaveLength(4);
    for (const end of ends) expect(end).toMatch(/^\[END\] success=withheld steps=(\d+) rewards=(0\.00,)*withheld$/);
    // The model never read a score.
    for (const body of model.requests) for (const m of body.messages.filter((m: any) => m.role === 'user' || m.role === 'tool')) expect(Object.keys(JSON.parse(m.content))).not.toContain('score');

    const read = (await request(ctx.http).get(`/runs/${outcome.run.run_id}`).set(bearer(readerKey)).expect(200)).body as Run;
    expect(read.split).toBe('test');
    expect(read.results!.overall.pass_hat_k.map((p) => p.estimate)).toEqual([0, 0]);
    expect(formatRunTable(read)).toContain('pass^1 = 0.000');
  } finally {
    await model.close();
  }
});

function stderrOf(run: { stderr: string[] }): string {
  return run.stderr.join('');
}

function round(value: number): number {
  return Number(value.toFixed(6));
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
