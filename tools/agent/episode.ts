import type { ChatCompletionMessageParam, ChatCompletionMessageToolCall, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { StepResponse } from '../../client/supportdesk-client';
import { endLine, startLine, stepLine, WITHHELD, type Logged } from './eval-log';
import type { ModelTurn } from './model-client';
import type { StartedEpisode } from './runs-api';
import type { UsageTally } from './usage-tally';

/** Turns in a row in which the model may answer without a usable tool call before the attempt is given up. */
export const MAX_IDLE_TURNS = 3;

export const SYSTEM_PROMPT =
  'You are a Tier-1 customer-support agent working a ticket queue. Use the tools to act: open tickets to read ' +
  'them, search the policy knowledge base, set priority, route, reply to the customer and resolve. Follow the ' +
  'policies and the customer contract notes exactly. Call exactly one tool per turn.';

export interface EpisodeModel {
  complete(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[], signal?: AbortSignal): Promise<ModelTurn>;
}

export interface EpisodeEnvironment {
  step(episodeId: string, action: Record<string, unknown>, requestId: string): Promise<StepResponse | { error: string }>;
}

export interface EpisodePlay {
  model: EpisodeModel;
  modelName: string;
  env: EpisodeEnvironment;
  tools: ChatCompletionTool[];
  /** Show the model the observation's score (an oracle; for experiments). */
  showScores: boolean;
  /** The run's success threshold: the [END] line's success is a score of at least this. */
  successThreshold: number;
  /** Aborted when the run is interrupted: the model call in flight is abandoned, and no further turn is taken. */
  signal: AbortSignal;
  /** Gets every completion's usage, also when the episode fails half-way. */
  usage: UsageTally;
}

/** An episode played to its end: its OpenEnv log lines, for stdout, and how many tool calls the model made. */
export interface PlayedEpisode {
  lines: string[];
  toolCalls: number;
  steps: number;
}

/** The run was interrupted between two turns. */
export class EpisodeInterrupted extends Error {}

/** The model stopped acting: MAX_IDLE_TURNS turns in a row without a tool call the server accepted. */
export class ModelStoppedActing extends Error {
  constructor(readonly toolCalls: number) {
    super(
      toolCalls === 0
        ? `the model answered ${MAX_IDLE_TURNS} turns in a row without calling a tool`
        : `the model stopped acting: ${MAX_IDLE_TURNS} turns in a row without a usable tool call`,
    );
  }
}

/**
 * Plays one episode the server has started: the model reads the observation and answers with tool calls, each
 * mapped to an action and stepped, until the episode is done. A malformed action is refused by the server without
 * using a step; the model is told why and may try again. Throws when the attempt cannot be finished (the model
 * failed or stopped acting, the run was interrupted, the server failed): the caller reports it on the cell.
 */
export async function playEpisode(started: StartedEpisode, play: EpisodePlay): Promise<PlayedEpisode> {
  const lines = [startLine(started.cell.task_id, play.modelName)];
  // What the model reads: the observation, without the score unless asked (the score is an oracle to a model that
  // tries values until it moves). The rewards go to the log, never to the model.
  const forModel = (observation: { score: number | null }) => JSON.stringify(play.showScores ? observation : { ...observation, score: undefined });
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: forModel(started.observation) },
  ];
  const rewards: Logged[] = [];
  let toolCalls = 0;
  let idleTurns = 0;
  let requests = 0;
  for (;;) {
    if (play.signal.aborted) throw new EpisodeInterrupted('interrupted');
    if (idleTurns >= MAX_IDLE_TURNS) throw new ModelStoppedActing(toolCalls);
    const turn = await play.model.complete(messages, play.tools, play.signal);
    play.usage.add(turn.usage);
    const call = firstFunctionCall(turn.message.tool_calls);
    messages.push({ role: 'assistant', content: turn.message.content ?? null, ...(call ? { tool_calls: [call] } : {}) });
    if (!call) {
      idleTurns++;
      messages.push({ role: 'user', content: 'Act by calling one of the tools.' });
      continue;
    }
    toolCalls++;
    const action = toAction(call.function.name, call.function.arguments);
    const outcome = await play.env.step(started.episode_id, action, `turn-${++requests}`);
    if ('error' in outcome) {
      lines.push(stepLine(rewards.length + 1, action, 0, false, outcome.error));
      messages.push({ role: 'tool', tool_call_id: call.id, content: `error: ${outcome.error}` });
      idleTurns++;
      continue;
    }
    idleTurns = 0;
    // A step that ends the episode without a score: the server withheld it (a test-split episode played with an
    // agent key), and its reward of 0 is no reward either.
    const withheld = outcome.done && outcome.info.score === null;
    const reward: Logged = withheld ? WITHHELD : outcome.reward;
    rewards.push(reward);
    lines.push(stepLine(outcome.observation.step_count, action, reward, outcome.done, outcome.observation.last_action_error));
    if (outcome.done) {
      const score = outcome.info.score;
      lines.push(endLine(score === null ? WITHHELD : score >= play.successThreshold, rewards.length, rewards));
      return { lines, toolCalls, steps: rewards.length };
    }
    messages.push({ role: 'tool', tool_call_id: call.id, content: forModel(outcome.observation) });
  }
}

/** The first function call of a turn (one action per turn; a custom-tool call is not one of ours). */
function firstFunctionCall(calls: ChatCompletionMessageToolCall[] | undefined) {
  const call = calls?.find((c) => c.type === 'function');
  return call?.type === 'function' ? call : undefined;
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
