import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { runAgent } from '../tools/agent/agent-runner';
import { latestFamily, nthSeedOf } from '../src/families';
import { privateSeed, privateSplitKeyOf } from '../src/tasks/private-split';
import { formatAgentReport, SCORES_WITHHELD_NOTE } from '../tools/agent/report-table';
import { referenceRun } from '../tools/validity/solvers';
import type { Action } from '../src/engine/actions';
import { SOLUTIONS } from './fixtures/solutions';
import { startScriptedModel } from './support/scripted-model';
import { startTestApp } from './support/test-app';
import { ADMIN_KEY, CHAIN_KEY, bearer, tenantWithKey } from './support/tenants';

let ctx: Awaited<ReturnType<typeof startTestApp>>;
let url: string;

beforeAll(async () => {
  ctx = await startTestApp();
  await ctx.app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(ctx.app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(() => ctx.app.close());

/** billing always solved; security solved on odd conversations only; logistics resolved the standard (wrong) way. */
function script(taskId: string, conversation: number, step: number): Action | null {
  const actions = SOLUTIONS[taskId].actions;
  if (taskId === 'security_compromised_account' && conversation % 2 === 0 && step === 2) return { type: 'set_priority', priority: 'low' };
  if (taskId === 'logistics_missing_order_vip' && step === actions.length - 1) return { type: 'resolve_ticket', resolution: 'carrier_trace_opened' };
  if (taskId === 'billing_duplicate_charge' && conversation === 1 && step === 1 && !script.nudged) {
    script.nudged = true; // one prose answer without a tool call: the runner must nudge, not give up
    return null;
  }
  return actions[step] ?? null;
}
script.nudged = false;

it('runs every task over HTTP, logs the OpenEnv format exactly, and reports pass^k (dense feedback)', async () => {
  const model = await startScriptedModel(script, { failFirst: 1 });
  const lines: string[] = [];
  try {
    const report = await runAgent(
      { url, modelBaseUrl: model.url, modelName: 'scripted-1', tasks: ['all'], trials: 3, threshold: 1, retry: { baseDelayMs: 1 }, feedback: 'dense', variant: 'canonical' },
      (line) => lines.push(line),
    );
    const billing = lines.slice(0, 8);
    expect(billing[0]).toBe('[START] task=billing_duplicate_charge env=supportdesk model=scripted-1');
    expect(billing[1]).toBe('[STEP] step=1 action={"type":"open_ticket","ticket_id":"T-1041"} reward=0.05 done=false error=null');
    expect(billing[2]).toMatch(/^\[STEP\] step=2 action=\{"type":"search_policy","query":"[^"]+"\} reward=0\.10 done=false error=null$/);
    expect(billing[6]).toBe('[STEP] step=6 action={"type":"resolve_ticket","resolution":"refund_issued","amount":348} reward=0.30 done=true error=null');
    expect(billing[7]).toBe('[END] success=true steps=6 rewards=0.05,0.10,0.15,0.20,0.20,0.30');
    for (const line of lines) expect(line).toMatch(/^\[(START|STEP|END)\] /);
    expect(lines.filter((l) => l.startsWith('[START]'))).toHaveLength(9);

    expect(report.tasks.map((t) => [t.taskId, t.successes, t.scores.length])).toEqual([
      ['billing_duplicate_charge', 3, 3],
      ['security_compromised_account', 2, 3],
      ['logistics_missing_order_vip', 0, 3],
    ]);
    // pass^k = mean over tasks of C(c,k)/C(n,k): (3/3 + 2/3 + 0)/3, (1 + 1/3 + 0)/3, (1 + 0 + 0)/3
    expect(report.passHatK.map((p) => Number(p.value!.toFixed(4)))).toEqual([0.5556, 0.4444, 0.3333]);
    expect(formatAgentReport(report, 1)).toContain('pass^1=0.556  pass^2=0.444  pass^3=0.333');

    // the runs are real, persisted episodes, labelled with the model
    const episodes = (await request(ctx.http).get('/episodes').query({ agent: 'llm:scripted-1', limit: 50 }).expect(200)).body.items;
    expect(episodes).toHaveLength(9);
    // the tools offered to the model are the six actions, in strict mode (see strict-tool-schemas.e2e-spec.ts)
    expect(model.requests[0].tools.map((t: any) => t.function.name)).toEqual([
      'open_ticket', 'search_policy', 'set_priority', 'route_ticket', 'send_reply', 'resolve_ticket',
    ]);
    expect(model.requests[0].tools.every((t: any) => t.function.strict === true)).toBe(true);
    // and the model's nulls for what it leaves out were taken as omitted (the scores above count those resolves)
    const resolves = model.calls.filter((c) => c.name === 'resolve_ticket').map((c) => JSON.parse(c.arguments));
    expect(resolves.filter((args) => args.amount === null).length).toBeGreaterThan(0);
  } finally {
    model.server.close();
  }
});

it('evaluates with feedback "final" by default: rewards 0 until the last step, and the model never sees a score', async () => {
  script.nudged = true;
  const model = await startScriptedModel(script);
  const lines: string[] = [];
  try {
    const report = await runAgent(
      { url, modelBaseUrl: model.url, modelName: 'scripted-final', tasks: ['billing_duplicate_charge', 'logistics_missing_order_vip'], trials: 1, threshold: 1, retry: { baseDelayMs: 1 }, variant: 'canonical' },
      (line) => lines.push(line),
    );
    expect(lines[1]).toBe('[STEP] step=1 action={"type":"open_ticket","ticket_id":"T-1041"} reward=0.00 done=false error=null');
    expect(lines[7]).toBe('[END] success=true steps=6 rewards=0.00,0.00,0.00,0.00,0.00,1.00');
    expect(report.tasks.map((t) => [t.taskId, t.scores])).toEqual([
      ['billing_duplicate_charge', [1]],
      ['logistics_missing_order_vip', [0.7]],
    ]);
    // What the model read: observations without the episode's score (search hits keep their relevance score).
    const observations = model.requests.flatMap((r: any) => r.messages.filter((m: any) => m.role === 'user' || m.role === 'tool'));
    expect(observations.length).toBeGreaterThan(10);
    for (const message of observations) expect(Object.keys(JSON.parse(message.content))).not.toContain('score');
    const episodes = (await request(ctx.http).get('/episodes').query({ agent: 'llm:scripted-final', limit: 10 }).expect(200)).body.items;
    expect(episodes.map((e: any) => e.feedback)).toEqual(['final', 'final']);
  } finally {
    model.server.close();
  }
});

it('says clearly when the model endpoint is unreachable', async () => {
  await expect(
    runAgent(
      { url, modelBaseUrl: 'http://127.0.0.1:9/v1', modelName: 'm', tasks: ['billing_duplicate_charge'], trials: 1, threshold: 1, retry: { attempts: 2, baseDelayMs: 1 } },
      () => undefined,
    ),
  ).rejects.toThrow(/the model endpoint is unreachable \(API_BASE_URL=http:\/\/127\.0\.0\.1:9\/v1\)/);
});

it('a malformed tool call is fed back to the model as an error, without using a step', async () => {
  // Always the same malformed call: it never uses a step, so the episode ends after three refused turns.
  const model = await startScriptedModel(() => ({ type: 'set_priority', priority: 'critical' }) as unknown as Action);
  const lines: string[] = [];
  try {
    const report = await runAgent(
      { url, modelBaseUrl: model.url, modelName: 'm2', tasks: ['billing_duplicate_charge'], trials: 1, threshold: 1, retry: { baseDelayMs: 1 } },
      (line) => lines.push(line),
    );
    expect(lines[1]).toMatch(/^\[STEP\] step=1 action=\{"type":"set_priority","priority":"critical"\} reward=0\.00 done=false error=action\.priority: priority must be one of/);
    expect(model.requests[1].messages.at(-1)).toMatchObject({ role: 'tool', content: expect.stringMatching(/^error: /) });
    expect(report.tasks[0].scores).toEqual([0]);
  } finally {
    model.server.close();
  }
});

it('--split test plays each trial on the next test seed of every family, always in final mode', async () => {
  const model = await startScriptedModel(() => ({ type: 'resolve_ticket', resolution: 'information_provided' }));
  try {
    const report = await runAgent(
      { url, modelBaseUrl: model.url, modelName: 'split-runner', tasks: ['all'], trials: 2, threshold: 1, retry: { baseDelayMs: 1 }, split: 'test', feedback: 'dense' },
      () => undefined,
    );
    expect(report.tasks.map((t) => t.scores.length)).toEqual([2, 2, 2]);
    const episodes = (await request(ctx.http).get('/episodes').query({ agent: 'llm:split-runner', limit: 10 }).expect(200)).body.items;
    expect(episodes.map((e: any) => [e.split, e.feedback, e.variant])).toEqual(episodes.map(() => ['test', 'final', 'generated']));
    expect(episodes.map((e: any) => e.seed).sort((a: number, b: number) => a - b)).toEqual([0, 0, 0, 5, 5, 5]);
  } finally {
    model.server.close();
  }
});

it('--split private plays trial t on the t-th test seed of the private split, in final mode, drawn under the server\'s secret', async () => {
  const secret = 'runner-private-split-secret-0123456789abcdef';
  const server = await startTestApp(undefined, { PRIVATE_SPLIT_KEY: secret });
  await server.app.listen(0, '127.0.0.1');
  const serverUrl = `http://127.0.0.1:${(server.app.getHttpServer().address() as AddressInfo).port}`;
  // The reference solution of the private instance the test (holding the secret) draws: 1.0 only on that instance.
  const solved = (taskId: string, conversation: number, step: number) => {
    const seed = nthSeedOf('test', conversation - 1);
    const task = latestFamily(taskId)!.generate(privateSeed(privateSplitKeyOf(secret), taskId, seed));
    return referenceRun(task, seed).actions[step] ?? null;
  };
  const model = await startScriptedModel(solved);
  try {
    const report = await runAgent(
      { url: serverUrl, modelBaseUrl: model.url, modelName: 'private-runner', tasks: ['billing_duplicate_charge'], trials: 2, threshold: 1, retry: { baseDelayMs: 1 }, split: 'private', feedback: 'dense' },
      () => undefined,
    );
    expect(report.tasks).toEqual([{ taskId: 'billing_duplicate_charge', scores: [1, 1], successes: 2 }]);
    const episodes = (await request(server.http).get('/episodes').query({ agent: 'llm:private-runner' }).expect(200)).body.items;
    expect(episodes.map((e: any) => [e.seed, e.split, e.split_source, e.split_key_id, e.feedback])).toEqual([
      [5, 'test', 'private', privateSplitKeyOf(secret).id, 'final'],
      [0, 'test', 'private', privateSplitKeyOf(secret).id, 'final'],
    ]);
  } finally {
    model.server.close();
    await server.app.close();
  }
});

it('trial t of the train split plays the t-th train seed', () => {
  expect([0, 1, 2, 3, 4, 5].map((n) => nthSeedOf('train', n))).toEqual([1, 2, 3, 4, 6, 7]);
  expect([0, 1, 2].map((n) => nthSeedOf('test', n))).toEqual([0, 5, 10]);
});

it('with keys required, an agent key is not shown test-split scores: [END] says withheld, the table reads them with a reader key or says they are withheld', async () => {
  const keyed = await startTestApp(undefined, { REQUIRE_API_KEY: 'true', ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY });
  await keyed.app.listen(0, '127.0.0.1');
  const keyedUrl = `http://127.0.0.1:${(keyed.app.getHttpServer().address() as AddressInfo).port}`;
  const { key, readerKey } = await tenantWithKey(keyed.http, 'runner-lab');
  // Conversation n (from 1) of a task is trial n - 1, on the test seed the runner gives it: the reference solution.
  const solved = (taskId: string, conversation: number, step: number) => {
    const seed = nthSeedOf('test', conversation - 1);
    return referenceRun(latestFamily(taskId)!.generate(seed), seed).actions[step] ?? null;
  };
  const options = { url: keyedUrl, envApiKey: key, modelName: 'keyed', tasks: ['billing_duplicate_charge'], trials: 2, threshold: 1, retry: { baseDelayMs: 1 }, split: 'test' as const };
  const withReader = await startScriptedModel(solved);
  const withoutReader = await startScriptedModel(solved);
  try {
    const lines: string[] = [];
    const read = await runAgent({ ...options, modelBaseUrl: withReader.url, readerApiKey: readerKey }, (line) => lines.push(line));
    const ends = lines.filter((line) => line.startsWith('[END]'));
    expect(ends).toHaveLength(2);
    for (const end of ends) expect(end).toMatch(/^\[END\] success=withheld steps=(\d+) rewards=(0\.00,)+withheld$/);
    const lastSteps = lines.filter((line) => line.startsWith('[STEP]') && line.includes('done=true'));
    expect(lastSteps.map((line) => / reward=(\S+) /.exec(line)![1])).toEqual(['withheld', 'withheld']);
    // The table is the evaluator's: read with the reader key.
    expect(read).toEqual({ tasks: [{ taskId: 'billing_duplicate_charge', scores: [1, 1], successes: 2 }], passHatK: [{ k: 1, value: 1 }, { k: 2, value: 1 }], withheld: false });
    expect(formatAgentReport(read, 1)).not.toContain('withheld');

    const unread = await runAgent({ ...options, modelBaseUrl: withoutReader.url }, () => undefined);
    expect(unread).toEqual({
      tasks: [{ taskId: 'billing_duplicate_charge', scores: [null, null], successes: null }],
      passHatK: [{ k: 1, value: null }, { k: 2, value: null }],
      withheld: true,
    });
    const table = formatAgentReport(unread, 1);
    expect(table).toMatch(/^billing_duplicate_charge\s+2\s+withheld\s+withheld\s+withheld withheld$/m);
    expect(table).toContain('pass^1=withheld  pass^2=withheld');
    expect(table).toContain(SCORES_WITHHELD_NOTE);
    // The model read no score in either run; the second run played the same cells again, which the audit counts.
    const observations = [...withReader.requests, ...withoutReader.requests].flatMap((r: any) => r.messages.filter((m: any) => m.role === 'tool'));
    for (const message of observations) expect(Object.keys(JSON.parse(message.content))).not.toContain('score');
    const stats = (await request(keyed.http).get('/stats').set(bearer(readerKey)).expect(200)).body;
    expect(stats).toMatchObject({ repeated_test_plays: 2, tasks: [{ task_id: 'billing_duplicate_charge', count: 4, mean_score: 1 }] });
  } finally {
    withReader.server.close();
    withoutReader.server.close();
    await keyed.app.close();
  }
});
