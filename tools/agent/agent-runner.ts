import { actionToolSchemas, strictSchema } from '../../src/mcp/tool-schemas';
import { endLine, startLine, stepLine, WITHHELD, type Logged } from './eval-log';
import {
  createSupportDeskClient,
  type Action,
  type ResetRequest,
  type StepResponse,
  type SupportDeskClient,
} from '../../client/supportdesk-client';
import { nthSeedOf, splitOf, type Split } from '../../src/families';
import type { Json } from '../../src/common/json';
import { HttpStatusError, requestJson, retryingFetch, UnreachableError, type RetryOptions } from './http-retry';
import { passHatK } from './pass-hat-k';

export interface AgentRunOptions {
  /** SupportDesk server, e.g. http://localhost:7860. */
  url: string;
  /** SupportDesk API key, if the server requires one. */
  envApiKey?: string;
  /**
   * A reader key of the same tenant. An agent key is never shown a test-split episode's score, so the report reads
   * those scores through it; without one they are reported as withheld. The model never sees it.
   */
  readerApiKey?: string;
  /** OpenAI-compatible endpoint (…/v1), model name and key. */
  modelBaseUrl: string;
  modelName: string;
  modelApiKey?: string;
  /** Task ids, or ['all']. */
  tasks: string[];
  trials: number;
  /** Score that counts as a success for pass^k. */
  threshold: number;
  /** The episodes' feedback mode: "final" (default: an evaluation, nothing revealed until the end) or "dense". */
  feedback?: 'final' | 'dense';
  /** Show the model the score in each observation (default: never, in either mode: it would be an oracle). */
  showScores?: boolean;
  /**
   * Draw each trial's instance from this split (trial t plays the t-th seed of the split, the same for every model);
   * omitted, trial t plays seed t. Test-split episodes run with feedback "final" whatever `feedback` says. "private":
   * the t-th test seed of the server's private test split (docs/evaluation.md), final too.
   */
  split?: Split | 'private';
  /** Play each task file's canonical instance instead of drawn ones (the seed then only orders the inbox). */
  variant?: 'generated' | 'canonical';
  retry?: Partial<RetryOptions>;
}

export interface TaskTrials {
  taskId: string;
  /** Each trial's score; null where the server withheld it and no reader key was given. */
  scores: (number | null)[];
  /** Trials scoring at least the threshold; null when a score is withheld. */
  successes: number | null;
}

export interface AgentRunReport {
  tasks: TaskTrials[];
  /** pass^k for k = 1…trials; null when a score is withheld. */
  passHatK: { k: number; value: number | null }[];
  /** Whether scores were withheld (test-split episodes, an agent key, no reader key): the table then says so. */
  withheld: boolean;
}

const SYSTEM_PROMPT =
  'You are a Tier-1 customer-support agent working a ticket queue. Use the tools to act: open tickets to read ' +
  'them, search the policy knowledge base, set priority, route, reply to the customer and resolve. Follow the ' +
  'policies and the customer contract notes exactly. Call exactly one tool per turn.';

/** Turns in which the model may answer without a tool call before the episode is abandoned. */
const MAX_IDLE_TURNS = 3;

/**
 * Drives an OpenAI-compatible chat model through SupportDesk episodes with tool calls mapped to the six actions,
 * talking to the server over HTTP, and logs in the OpenEnv evaluation format.
 */
export async function runAgent(options: AgentRunOptions, log: (line: string) => void): Promise<AgentRunReport> {
  const retry: RetryOptions = { attempts: 5, timeoutMs: 60_000, baseDelayMs: 500, ...options.retry };
  const env = new EnvironmentClient(options.url, options.envApiKey, options.readerApiKey, retry);
  const taskIds = options.tasks.includes('all') ? (await env.tasks()).map((t: { id: string }) => t.id) : options.tasks;
  const tools = strictFunctionTools(await env.actionSchema());
  const model = new ModelClient(options, retry);

  const results: TaskTrials[] = [];
  for (const taskId of taskIds) {
    const scores: (number | null)[] = [];
    for (let trial = 0; trial < options.trials; trial++) {
      scores.push(await runEpisode(env, model, tools, taskId, trial, options, log));
    }
    const known = scores.filter((s): s is number => s !== null);
    results.push({ taskId, scores, successes: known.length < scores.length ? null : known.filter((s) => s >= options.threshold).length });
  }
  const withheld = results.some((r) => r.successes === null);
  const passes = Array.from({ length: options.trials }, (_, i) => ({
    k: i + 1,
    value: withheld ? null : passHatK(results.map((r) => ({ trials: r.scores.length, successes: r.successes ?? 0 })), i + 1),
  }));
  return { tasks: results, passHatK: passes, withheld };
}

/**
 * The six actions as Chat Completions function tools in strict mode: every property required, optional ones
 * nullable, no keywords strict mode refuses (the server still checks those constraints, and takes null as omitted).
 */
export function strictFunctionTools(actionSchema: Record<string, Json>) {
  return actionToolSchemas(actionSchema).map((tool) => ({
    type: 'function' as const,
    function: { name: tool.name, description: tool.description, parameters: strictSchema(tool.parameters), strict: true },
  }));
}

async function runEpisode(
  env: EnvironmentClient,
  model: ModelClient,
  tools: unknown[],
  taskId: string,
  trial: number,
  options: AgentRunOptions,
  log: (line: string) => void,
): Promise<number | null> {
  log(startLine(taskId, options.modelName));
  const seed = options.split ? nthSeedOf(options.split === 'private' ? 'test' : options.split, trial) : trial;
  const started = await env.reset({
    task_id: taskId,
    seed,
    variant: options.variant ?? 'generated',
    ...(options.split ? { split: options.split } : {}),
    agent: `llm:${options.modelName}`,
    run_label: `agent-runner-trial-${trial}`,
    feedback: options.split === 'test' || options.split === 'private' || (options.variant !== 'canonical' && splitOf(seed) === 'test') ? 'final' : (options.feedback ?? 'final'),
  });
  // What the model reads: the observation, without the score unless asked (the score is an oracle to a model that
  // tries values until it moves). The rewards go to the log, never to the model.
  const forModel = (observation: { score: number | null }) => JSON.stringify(options.showScores ? observation : { ...observation, score: undefined });
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: forModel(started.observation) },
  ];
  const rewards: Logged[] = [];
  let done = false;
  let score = 0;
  let withheld = false;
  let idleTurns = 0;
  while (!done && idleTurns < MAX_IDLE_TURNS) {
    const reply = await model.complete(messages, tools);
    const call = reply.tool_calls?.[0];
    messages.push({ role: 'assistant', content: reply.content ?? null, ...(call ? { tool_calls: [call] } : {}) });
    if (!call) {
      idleTurns++;
      messages.push({ role: 'user', content: 'Act by calling one of the tools.' });
      continue;
    }
    const action = toAction(call.function.name, call.function.arguments);
    const outcome = await env.step(started.episode_id, action);
    if ('error' in outcome) {
      // A malformed action is refused without using a step; the model sees why and may try again.
      log(stepLine(rewards.length + 1, action, 0, false, outcome.error));
      messages.push({ role: 'tool', tool_call_id: call.id, content: `error: ${outcome.error}` });
      idleTurns++;
      continue;
    }
    idleTurns = 0;
    done = outcome.done;
    // A step that ends the episode without a score: the server withheld it (a test-split episode played with an
    // agent key), and its reward of 0 is no reward either.
    withheld = done && outcome.info.score === null;
    const reward: Logged = withheld ? WITHHELD : outcome.reward;
    rewards.push(reward);
    // Null while a "final" episode runs; an episode abandoned before it ends (the model stopped calling tools)
    // keeps the last score it was shown, 0 in final mode.
    score = outcome.info.score ?? score;
    log(stepLine(outcome.observation.step_count, action, reward, done, outcome.observation.last_action_error));
    messages.push({ role: 'tool', tool_call_id: call.id, content: forModel(outcome.observation) });
  }
  if (withheld) {
    // The log says what the agent key was told; the report reads the score with the reader key, if there is one.
    log(endLine(WITHHELD, rewards.length, rewards));
    return env.readsScores ? env.scoreAsReader(started.episode_id) : null;
  }
  log(endLine(score >= options.threshold, rewards.length, rewards));
  return score;
}

function toAction(name: string, rawArguments: string): Record<string, unknown> {
  let args: unknown;
  try {
    args = JSON.parse(rawArguments || '{}');
  } catch {
    args = { unparsable_arguments: rawArguments };
  }
  return { type: name, ...(args !== null && typeof args === 'object' && !Array.isArray(args) ? args : { arguments: args }) };
}

/** The SupportDesk server, reached only through the generated OpenAPI client. */
class EnvironmentClient {
  private readonly client: SupportDeskClient;
  /** The same server with the reader key, for the scores the agent key is not shown. */
  private readonly reader: SupportDeskClient | null;

  constructor(
    private readonly base: string,
    apiKey: string | undefined,
    readerApiKey: string | undefined,
    retry: RetryOptions,
  ) {
    this.client = createSupportDeskClient(base, { apiKey, fetch: retryingFetch(retry) });
    this.reader = readerApiKey === undefined ? null : createSupportDeskClient(base, { apiKey: readerApiKey, fetch: retryingFetch(retry) });
  }

  get readsScores(): boolean {
    return this.reader !== null;
  }

  /** An ended episode's score, as the reader key sees it (a reader sees every episode of its tenant, graded). */
  async scoreAsReader(episodeId: string): Promise<number> {
    const reader = this.reader!;
    const graded = this.unwrap(await this.call(() => reader.POST('/grader', { body: { episode_id: episodeId } })));
    if (graded.score === null) throw new Error(`the reader key was not shown the score of episode ${episodeId}: give SUPPORTDESK_READER_KEY a reader key of the agent key's tenant`);
    return graded.score;
  }

  async tasks() {
    return this.unwrap(await this.call(() => this.client.GET('/tasks'))).tasks;
  }

  async actionSchema() {
    return this.unwrap(await this.call(() => this.client.GET('/action_schema'))) as Record<string, Json>;
  }

  async reset(body: ResetRequest) {
    return this.unwrap(await this.call(() => this.client.POST('/reset', { body })));
  }

  /** A step's response, or the validation error for a malformed action (422). */
  async step(episodeId: string, action: Record<string, unknown>): Promise<StepResponse | { error: string }> {
    // The model's arguments are checked by the server, not by the compiler: they come from a model.
    const result = await this.call(() => this.client.POST('/step', { body: { episode_id: episodeId, action: action as Action } }));
    if (result.response.status === 422) return { error: (result.error as { message?: string })?.message ?? 'invalid action' };
    return this.unwrap(result);
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof UnreachableError) throw new UnreachableError(`the SupportDesk server is unreachable: ${error.message}`);
      throw error;
    }
  }

  private unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
    if (result.data === undefined) {
      throw new HttpStatusError(result.response.status, result.error, `${this.base}${new URL(result.response.url).pathname}`);
    }
    return result.data;
  }
}

class ModelClient {
  constructor(
    private readonly options: AgentRunOptions,
    private readonly retry: RetryOptions,
  ) {}

  async complete(messages: unknown[], tools: unknown[]): Promise<{ content?: string | null; tool_calls?: ToolCall[] }> {
    const url = `${this.options.modelBaseUrl.replace(/\/+$/, '')}/chat/completions`;
    const headers = this.options.modelApiKey ? { authorization: `Bearer ${this.options.modelApiKey}` } : undefined;
    let response: any;
    try {
      response = await requestJson(
        url,
        { method: 'POST', headers, body: { model: this.options.modelName, messages, tools, tool_choice: 'auto', temperature: 0 } },
        this.retry,
      );
    } catch (error) {
      if (error instanceof UnreachableError) {
        throw new UnreachableError(`the model endpoint is unreachable (API_BASE_URL=${this.options.modelBaseUrl}): ${error.message}`);
      }
      throw error;
    }
    const message = response?.choices?.[0]?.message;
    if (!message) throw new Error(`the model endpoint answered without choices[0].message: ${JSON.stringify(response).slice(0, 300)}`);
    return message;
  }
}

interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}
