import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import { toJsonSchema } from '../../src/openapi/json-schema';
import type { Json } from '../../src/common/json';
import { noToolCallsWarning, runAgent, type AgentRunOptions } from './agent-runner';
import { HttpStatusError } from './http-retry';
import type { Cell, CreateRunBody, EpisodeReport, Run, RunsPort, StartedEpisode } from './runs-api';

/*
 * The runner's bookkeeping without a server or a model: a fake of the run routes that keeps cells as the contract
 * says (a bare {run_id} reset claims the next pending, abandoned or failed cell; a report with an infrastructure
 * error fails the cell; the step that ends an episode finishes it), and the real openai SDK talking to a fake fetch.
 */

const document = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8')) as OpenAPIObject;
const stepRequest = document.components!.schemas!.StepRequestDto as { properties: Record<string, Json> };
const { description: _description, ...union } = stepRequest.properties.action as Record<string, Json>;
const ACTION_SCHEMA = toJsonSchema(document, { type: 'object', ...union } as Json, 'SupportDesk action');

interface FakeCell extends Cell {
  position: number;
  /** Episodes whose step finished this cell (must end up exactly one). */
  finishedBy: string[];
}

class FakeRuns implements RunsPort {
  readonly cells: FakeCell[] = [];
  readonly reports: { episodeId: string; body: EpisodeReport }[] = [];
  readonly steps: string[] = [];
  resets = 0;
  private episodes = 0;
  private readonly byEpisode = new Map<string, FakeCell>();
  private created: CreateRunBody | null = null;

  constructor(families: string[], seeds: number[], trials: number) {
    for (let trial = 0; trial < trials; trial++) {
      for (const task_id of families) {
        for (const seed of seeds) {
          this.cells.push({
            task_id, seed, trial, status: 'pending', episode_id: null, attempts: 0, termination: null, wall_ms: null,
            input_tokens: null, output_tokens: null, position: this.cells.length, finishedBy: [],
          });
        }
      }
    }
  }

  async actionSchema() {
    return ACTION_SCHEMA;
  }

  async createRun(body: CreateRunBody): Promise<Run> {
    this.created = body;
    return this.snapshot();
  }

  async run(): Promise<Run> {
    return this.snapshot();
  }

  async startNextCell(): Promise<StartedEpisode | null> {
    this.resets++;
    const cell = this.cells.find((c) => c.status === 'pending' || c.status === 'abandoned' || c.status === 'failed');
    if (!cell) return null;
    const episode_id = `ep-${++this.episodes}`;
    Object.assign(cell, { status: 'active', episode_id, attempts: cell.attempts + 1, termination: null });
    this.byEpisode.set(episode_id, cell);
    return {
      episode_id,
      reward: 0,
      done: false,
      observation: { task_id: cell.task_id, step_count: 0, score: null, last_action_error: null } as never,
      info: { seed: cell.seed } as never,
      cell: { task_id: cell.task_id, seed: cell.seed, trial: cell.trial },
    };
  }

  async step(episodeId: string, action: Record<string, unknown>) {
    this.steps.push(episodeId);
    const cell = this.byEpisode.get(episodeId)!;
    if (cell.status !== 'active' || cell.episode_id !== episodeId) throw new HttpStatusError(409, { message: 'episode has ended' }, '/step');
    if (action.type === 'open_ticket') {
      return {
        episode_id: episodeId,
        reward: 0,
        done: false,
        observation: { task_id: cell.task_id, step_count: 1, score: null, last_action_error: null },
        info: { score: null, status: 'active', last_action_error: null, task_id: cell.task_id, step_count: 1 },
      } as never;
    }
    if (action.type !== 'resolve_ticket') return { error: `action.type: ${String(action.type)} is not wanted here` };
    Object.assign(cell, { status: 'finished', termination: 'resolved' });
    cell.finishedBy.push(episodeId);
    return {
      episode_id: episodeId,
      reward: 1,
      done: true,
      observation: { task_id: cell.task_id, step_count: 1, score: 1, last_action_error: null },
      info: { score: 1, status: 'resolved', last_action_error: null, task_id: cell.task_id, step_count: 1 },
    } as never;
  }

  async report(_runId: string, episodeId: string, body: EpisodeReport): Promise<Cell> {
    this.reports.push({ episodeId, body });
    const cell = this.byEpisode.get(episodeId)!;
    if (body.infrastructure_error !== undefined) {
      if (cell.status !== 'active' || cell.episode_id !== episodeId) throw new HttpStatusError(409, { message: 'the episode has ended' }, '/report');
      Object.assign(cell, { status: 'failed', termination: 'infrastructure_error' });
    }
    if (body.gave_up) {
      if (cell.status !== 'active' || cell.episode_id !== episodeId) throw new HttpStatusError(409, { message: 'the episode has ended' }, '/report');
      Object.assign(cell, { status: 'finished', termination: 'gave_up' });
      cell.finishedBy.push(episodeId);
    }
    if (body.input_tokens !== undefined) cell.input_tokens = (cell.input_tokens ?? 0) + body.input_tokens;
    if (body.output_tokens !== undefined) cell.output_tokens = (cell.output_tokens ?? 0) + body.output_tokens;
    return cell;
  }

  private snapshot(): Run {
    const count = (status: Cell['status']) => this.cells.filter((c) => c.status === status).length;
    return {
      run_id: 'run_fake',
      name: this.created?.name ?? 'fake',
      agent: this.created?.agent ?? 'llm:fake',
      model: this.created?.model ?? 'fake-model',
      split: 'canonical',
      feedback: 'final',
      families: [...new Set(this.cells.map((c) => c.task_id))],
      seeds: [...new Set(this.cells.map((c) => c.seed))],
      trials: Math.max(...this.cells.map((c) => c.trial)) + 1,
      success_threshold: 1,
      status: count('finished') === this.cells.length ? 'complete' : 'open',
      progress: { cells: this.cells.length, pending: count('pending'), active: count('active'), finished: count('finished'), failed: count('failed'), abandoned: count('abandoned') },
      results: null,
      results_withheld: 'fake',
    };
  }
}

/** A chat completion as an OpenAI-compatible endpoint sends it. */
function completion(message: Record<string, unknown>, usage: Record<string, number> | null = { prompt_tokens: 10, completion_tokens: 2 }): Response {
  return new Response(JSON.stringify({ id: 'c', object: 'chat.completion', choices: [{ index: 0, message, finish_reason: 'stop' }], ...(usage ? { usage } : {}) }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}
const RESOLVE = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'resolve_ticket', arguments: '{"resolution":"refund_issued"}' } }] };
const PROSE = { role: 'assistant', content: 'I would refund the customer.' };

/** A fetch that never answers until its request is aborted (a model call in flight at Ctrl-C). */
function hanging(init: RequestInit | undefined, inFlight: { count: number }): Promise<Response> {
  inFlight.count++;
  return new Promise((_, reject) => {
    init?.signal?.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })), { once: true });
  });
}

function options(api: FakeRuns, fetchImpl: (url: string, init?: RequestInit) => Promise<Response>, extra: Partial<AgentRunOptions> = {}) {
  const log: string[] = [];
  const stderr: string[] = [];
  const opts: AgentRunOptions = {
    url: 'http://supportdesk.invalid',
    model: { baseURL: 'http://model.invalid/v1', name: 'fake-model', maxRetries: 0, timeoutMs: 5_000, fetch: fetchImpl as typeof fetch },
    run: { create: { families: ['a', 'b'], split: 'canonical', seed_count: 1, trials: 2 } },
    concurrency: 2,
    api,
    log: (line) => log.push(line),
    stderr: { write: (text: string) => stderr.push(text), isTTY: false },
    ...extra,
  };
  return { opts, log, stderr };
}

describe('runAgent fills a run', () => {
  it('fills every cell exactly once, the episodes\' lines together, and reports the tokens summed over each episode', async () => {
    const api = new FakeRuns(['a', 'b', 'c'], [0, 1], 2);
    // Every episode: one prose answer (nudged), then the tool call: two completions of 10 + 2 tokens.
    const turns = new Map<string, number>();
    const fetchImpl = async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init!.body));
      const key = body.messages[1].content;
      const turn = (turns.get(key) ?? 0) + 1;
      turns.set(key, turn);
      return completion(body.messages.length === 2 ? PROSE : RESOLVE);
    };
    const { opts, log, stderr } = options(api, fetchImpl, { concurrency: 3 });
    const outcome = await runAgent(opts);

    expect(outcome).toMatchObject({ ending: 'done', filled: 12, failedAttempts: 0, episodesWithoutToolCalls: 0 });
    expect(api.cells.map((c) => [c.status, c.attempts, c.finishedBy.length])).toEqual(api.cells.map(() => ['finished', 1, 1]));
    // One token report per episode, with both completions summed.
    expect(api.reports).toHaveLength(12);
    expect(api.reports.map((r) => r.body)).toEqual(api.reports.map(() => ({ input_tokens: 20, output_tokens: 4 })));
    expect(api.cells.map((c) => c.input_tokens)).toEqual(api.cells.map(() => 20));
    // Three workers, yet each episode's [START]/[STEP]/[END] lines stay together.
    expect(log).toHaveLength(36);
    for (let i = 0; i < log.length; i += 3) {
      expect(log[i]).toMatch(/^\[START\] task=[abc] env=supportdesk model=fake-model$/);
      expect(log[i + 1]).toBe('[STEP] step=1 action={"type":"resolve_ticket","resolution":"refund_issued"} reward=1.00 done=true error=null');
      expect(log[i + 2]).toBe('[END] success=true steps=1 rewards=1.00');
    }
    // The run was created for the model, and three workers stopped on "no cell left".
    expect(stderr.join('')).toContain('progress: 12/12 cells (100%)');
    expect(api.resets).toBe(12 + 3);
  });

  it('reports no tokens when the endpoint gives no usage', async () => {
    const api = new FakeRuns(['a'], [0], 1);
    const { opts } = options(api, async () => completion(RESOLVE, null));
    await runAgent(opts);
    expect(api.reports).toEqual([]);
    expect(api.cells[0]).toMatchObject({ status: 'finished', input_tokens: null });
  });

  it('Ctrl-C: takes no further cell, aborts the model calls in flight, reports those episodes as interrupted; resuming fills each cell once', async () => {
    const api = new FakeRuns(['a', 'b', 'c'], [0], 2);
    const interrupt = new AbortController();
    const inFlight = { count: 0 };
    let calls = 0;
    const fetchImpl = async (_url: string, init?: RequestInit) => {
      calls++;
      if (calls <= 2) return completion(RESOLVE);
      const pending = hanging(init, inFlight);
      // Both workers are waiting on the model: the user presses Ctrl-C.
      if (inFlight.count === 2) setImmediate(() => interrupt.abort());
      return pending;
    };
    const { opts, log, stderr } = options(api, fetchImpl, { signal: interrupt.signal });
    const outcome = await runAgent(opts);

    expect(outcome).toMatchObject({ ending: 'interrupted', filled: 2, failedAttempts: 2 });
    // Four cells claimed: two finished, two in flight at the interrupt; none after it.
    expect(api.resets).toBe(4);
    const interrupted = api.reports.filter((r) => r.body.infrastructure_error !== undefined);
    // (The aborted calls had no answer, so no usage: the reports carry no token counts.)
    expect(interrupted.map((r) => r.body)).toEqual([{ infrastructure_error: 'interrupted' }, { infrastructure_error: 'interrupted' }]);
    expect(new Set(interrupted.map((r) => r.episodeId)).size).toBe(2);
    expect(api.cells.filter((c) => c.status === 'failed')).toHaveLength(2);
    expect(api.cells.filter((c) => c.status === 'pending')).toHaveLength(2);
    // The interrupted episodes never reached the server's /step, and printed no lines.
    expect(api.steps).toHaveLength(2);
    expect(log.filter((l) => l.startsWith('[END]'))).toHaveLength(2);
    expect(stderr.join('')).toContain('(interrupted); it will be filled again');

    // Resume: the two failed cells and the two pending ones are filled, each exactly once.
    const resumed = options(api, async () => completion(RESOLVE), { run: { resume: 'run_fake' }, model: { baseURL: 'http://model.invalid/v1', name: null, maxRetries: 0, fetch: (async () => completion(RESOLVE)) as typeof fetch } });
    const second = await runAgent(resumed.opts);
    expect(second).toMatchObject({ ending: 'done', filled: 4, failedAttempts: 0 });
    expect(second.run.status).toBe('complete');
    expect(api.cells.map((c) => c.finishedBy.length)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(api.cells.map((c) => c.attempts).sort()).toEqual([1, 1, 1, 1, 2, 2]);
  });

  it('an interrupt while the server is starting an episode gives that episode back at once', async () => {
    const api = new FakeRuns(['a', 'b'], [0], 1);
    const interrupt = new AbortController();
    const start = api.startNextCell.bind(api);
    api.startNextCell = async () => {
      const started = await start();
      interrupt.abort();
      return started;
    };
    const { opts } = options(api, async () => completion(RESOLVE), { signal: interrupt.signal, concurrency: 1 });
    const outcome = await runAgent(opts);
    expect(outcome).toMatchObject({ ending: 'interrupted', filled: 0, failedAttempts: 1 });
    expect(api.reports).toEqual([{ episodeId: 'ep-1', body: { infrastructure_error: 'interrupted' } }]);
    expect(api.cells.map((c) => c.status)).toEqual(['failed', 'pending']);
  });

  it('a model failure past the SDK\'s retries is reported on its cell, and the runner goes on with the others', async () => {
    const api = new FakeRuns(['a', 'b', 'c'], [0], 1);
    let calls = 0;
    const fetchImpl = async () => {
      calls++;
      if (calls === 1 || calls === 2) return new Response('{"error":{"message":"overloaded"}}', { status: 503, headers: { 'content-type': 'application/json' } });
      return completion(RESOLVE);
    };
    // One retry: the first call's two attempts both get 503.
    const { opts } = options(api, fetchImpl, { concurrency: 1, model: { baseURL: 'http://model.invalid/v1', name: 'fake-model', maxRetries: 1, fetch: fetchImpl as typeof fetch } });
    const outcome = await runAgent(opts);
    expect(calls).toBe(2 + 3);
    expect(outcome).toMatchObject({ ending: 'done', filled: 3, failedAttempts: 1 });
    expect(api.reports[0]).toEqual({ episodeId: 'ep-1', body: { infrastructure_error: expect.stringMatching(/^the model endpoint \(http:\/\/model\.invalid\/v1\) answered 503: /) } });
    // The failed cell (the first) was handed out again and filled.
    expect(api.cells.map((c) => [c.status, c.attempts])).toEqual([['finished', 2], ['finished', 1], ['finished', 1]]);
  });

  it('stops taking cells after failures in a row (an endpoint that is down), and says so', async () => {
    const api = new FakeRuns(['a', 'b', 'c'], [0, 1], 2);
    const fetchImpl = async () => {
      throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    };
    const { opts } = options(api, fetchImpl, { concurrency: 1, maxConsecutiveFailures: 3 });
    const outcome = await runAgent(opts);
    expect(outcome).toMatchObject({ ending: 'stopped', filled: 0, failedAttempts: 3, stopped: { endpoint: true } });
    expect(outcome.stopped!.reason).toMatch(/^3 attempts in a row failed; the last: the model endpoint is unreachable \(http:\/\/model\.invalid\/v1\): ECONNREFUSED/);
    expect(api.resets).toBe(3);
  });

  it('warns when the model answers without calling a tool, for each episode and at the end', async () => {
    const api = new FakeRuns(['a', 'b'], [0], 1);
    const { opts, stderr } = options(api, async () => completion(PROSE), { concurrency: 1, maxConsecutiveFailures: 2 });
    const outcome = await runAgent(opts);
    expect(outcome).toMatchObject({ ending: 'stopped', episodesWithoutToolCalls: 2 });
    expect(api.reports.map((r) => r.body)).toEqual([
      { input_tokens: 30, output_tokens: 6, infrastructure_error: 'the model answered 3 turns in a row without calling a tool' },
      { input_tokens: 30, output_tokens: 6, infrastructure_error: 'the model answered 3 turns in a row without calling a tool' },
    ]);
    const text = stderr.join('');
    expect(text).toContain('warning: the model answered without calling a tool in a seed 0 trial 0');
    expect(text).toContain(noToolCallsWarning(2));
    expect(noToolCallsWarning(2)).toBe('warning: the model never called a tool in 2 episodes — does the endpoint support tool calling?');
  });

  it('a model that acted and then stopped acting gives the cell up: it counts, with the score it had, and is not handed out again', async () => {
    const api = new FakeRuns(['a'], [0], 1);
    const OPEN = { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'open_ticket', arguments: '{"ticket_id":"T-1"}' } }] };
    let calls = 0;
    const { opts, stderr } = options(api, async () => completion(calls++ === 0 ? OPEN : PROSE), { concurrency: 1 });
    const outcome = await runAgent(opts);
    expect(outcome).toMatchObject({ ending: 'done', filled: 1, failedAttempts: 0, episodesWithoutToolCalls: 0 });
    expect(api.reports.map((r) => r.body)).toEqual([{ input_tokens: 40, output_tokens: 8, gave_up: true }]);
    expect(api.cells.map((c) => [c.status, c.termination, c.attempts])).toEqual([['finished', 'gave_up', 1]]);
    expect(stderr.join('')).toMatch(/the model stopped acting: 3 turns in a row without a usable tool call in a seed 0 trial 0; the cell counts with the score it had/);
  });

  it('a malformed tool call is shown to the model and uses no step; the model may then act', async () => {
    const api = new FakeRuns(['a'], [0], 1);
    const bodies: any[] = [];
    const authorizations: (string | null)[] = [];
    const fetchImpl = async (_url: string, init?: RequestInit) => {
      const body = JSON.parse(String(init!.body));
      bodies.push(body);
      authorizations.push(new Headers(init!.headers).get('authorization'));
      return completion(bodies.length === 1 ? { ...RESOLVE, tool_calls: [{ ...RESOLVE.tool_calls[0], function: { name: 'set_priority', arguments: '{"priority":"x"}' } }] } : RESOLVE);
    };
    const { opts, log } = options(api, fetchImpl);
    await runAgent(opts);
    expect(log[1]).toBe('[STEP] step=1 action={"type":"set_priority","priority":"x"} reward=0.00 done=false error=action.type: set_priority is not wanted here');
    expect(bodies[1].messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'error: action.type: set_priority is not wanted here' });
    // The tools offered are the six actions in strict mode, and no key was needed: a placeholder is sent.
    expect(bodies[0].tools.map((t: any) => t.function.name)).toEqual(['open_ticket', 'search_policy', 'set_priority', 'route_ticket', 'send_reply', 'resolve_ticket']);
    expect(bodies[0].tools.every((t: any) => t.function.strict === true)).toBe(true);
    expect(authorizations).toEqual(['Bearer no-key', 'Bearer no-key']);
    expect(api.cells[0].status).toBe('finished');
  });

  it('resuming refuses a model other than the run\'s', async () => {
    const api = new FakeRuns(['a'], [0], 1);
    const { opts } = options(api, async () => completion(RESOLVE), { run: { resume: 'run_fake' }, model: { baseURL: 'http://m/v1', name: 'other' } });
    await expect(runAgent(opts)).rejects.toThrow('run run_fake is played by model fake-model, not other');
  });
});
