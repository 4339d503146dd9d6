import type { InspectExportInput, InspectSampleInput } from './inspect-export-input';
import type {
  ChatMessage,
  ChatMessageAssistant,
  ChatMessageTool,
  EvalError,
  EvalSample,
  InspectJson,
  InspectJsonObject,
  ModelUsage,
  Score,
} from './inspect-log.types';
import { SCORER_NAME, epochOf, modelName, sampleId } from './inspect-names';
import { countOrNull, finiteOrNull, isoInstant, toJsonObject } from './json-values';

type Run = InspectExportInput['run'];
type Step = InspectSampleInput['steps'][number];

/**
 * One cell's episode as Inspect's EvalSample: id "<task_id>:<seed>", epoch trial + 1, the instruction as input,
 * the conversation as an assistant tool call per step (function = the action's type, arguments = the rest of
 * the action) answered by a tool message (the outcome, and the error when the step failed). The grade is one
 * score of the "supportdesk" scorer; a cell with no score has no score at all (Inspect's own sentinel for
 * "unscored" is NaN, which JSON cannot hold). An abandoned or infrastructure-failed episode carries an error.
 */
export function evalSample(sample: InspectSampleInput, run: Run): EvalSample {
  const model = modelName(run);
  const score = sampleScore(sample);
  const usage = sampleUsage(sample);
  const error = sampleError(sample);
  const totalTime = finiteOrNull(sample.wall_ms);
  const out: EvalSample = {
    id: sampleId(sample.task_id, sample.seed),
    epoch: epochOf(sample.trial),
    input: sample.instruction,
    target: sampleTarget(run),
    messages: sampleMessages(sample, model),
    output: { model, choices: [], completion: '', ...(usage === null ? {} : { usage }) },
    ...(score === null ? {} : { scores: { [SCORER_NAME]: score } }),
    metadata: sampleMetadata(sample, score !== null),
    store: {},
    events: [],
    model_usage: usage === null ? {} : { [model]: usage },
    role_usage: {},
    started_at: isoInstant(sample.started_at),
    ...(sample.finished_at === null ? {} : { completed_at: isoInstant(sample.finished_at) }),
    ...(totalTime === null || totalTime < 0 ? {} : { total_time: totalTime / 1000 }),
    uuid: sample.episode_id,
    ...(error === null ? {} : { error }),
    attachments: {},
  };
  return out;
}

/** What success means, as the sample's target: a score at or above the run's threshold. */
export function sampleTarget(run: Run): string {
  const threshold = finiteOrNull(run.success_threshold);
  return threshold === null ? '' : `score >= ${threshold}`;
}

/** The grade as Inspect's Score, or null when the cell has no (finite) score. */
export function sampleScore(sample: InspectSampleInput): Score | null {
  const value = finiteOrNull(sample.score);
  if (value === null) return null;
  const components = gradingComponents(sample);
  const penalties = gradingPenalties(sample);
  return {
    value,
    ...(sample.termination === null ? {} : { answer: sample.termination }),
    explanation: scoreExplanation(components, penalties),
    metadata: {
      components,
      penalties,
      success: sample.success,
      termination: sample.termination,
    },
    history: [],
  };
}

/** Token usage, when the agent reported any. */
export function sampleUsage(sample: InspectSampleInput): ModelUsage | null {
  const input = countOrNull(sample.input_tokens);
  const output = countOrNull(sample.output_tokens);
  if (input === null && output === null) return null;
  const inputTokens = input ?? 0;
  const outputTokens = output ?? 0;
  return { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens };
}

function sampleError(sample: InspectSampleInput): EvalError | null {
  switch (sample.termination) {
    case 'infrastructure_error':
      return { message: 'infrastructure error: the episode could not be completed', traceback: '', traceback_ansi: '' };
    case 'abandoned':
      return { message: 'abandoned: the episode was not finished', traceback: '', traceback_ansi: '' };
    default:
      return null;
  }
}

function sampleMetadata(sample: InspectSampleInput, scored: boolean): InspectJsonObject {
  return {
    task_id: sample.task_id,
    seed: sample.seed,
    trial: sample.trial,
    episode_id: sample.episode_id,
    termination: sample.termination,
    success: sample.success,
    steps: sample.steps.length,
    wall_ms: countOrNull(sample.wall_ms),
    input_tokens: countOrNull(sample.input_tokens),
    output_tokens: countOrNull(sample.output_tokens),
    // Without a score the grading has no Score to sit in; keep it on the sample.
    ...(scored ? {} : { components: gradingComponents(sample), penalties: gradingPenalties(sample) }),
  };
}

function gradingComponents(sample: InspectSampleInput): InspectJsonObject {
  const out: InspectJsonObject = {};
  for (const [name, points] of Object.entries(sample.components)) out[name] = finiteOrNull(points);
  return out;
}

function gradingPenalties(sample: InspectSampleInput): InspectJsonObject[] {
  return sample.penalties.map((penalty) => ({ code: penalty.code, points: finiteOrNull(penalty.points) }));
}

function scoreExplanation(components: InspectJsonObject, penalties: InspectJsonObject[]): string {
  const points = (value: InspectJson | undefined): string => (value === null || value === undefined ? '-' : String(value));
  const earned = Object.entries(components).map(([name, value]) => `${name} ${points(value)}`);
  const lost = penalties.map((penalty) => `${String(penalty.code)} ${points(penalty.points)}`);
  return [
    `components: ${earned.length === 0 ? 'none' : earned.join(', ')}`,
    `penalties: ${lost.length === 0 ? 'none' : lost.join(', ')}`,
  ].join('\n');
}

/** The instruction as the user's message, then each step as a tool call and its result. */
export function sampleMessages(sample: InspectSampleInput, model: string): ChatMessage[] {
  const messages: ChatMessage[] = [{ role: 'user', content: sample.instruction, source: 'input' }];
  for (const step of sample.steps) messages.push(...stepMessages(step, model));
  return messages;
}

function stepMessages(step: Step, model: string): [ChatMessageAssistant, ChatMessageTool] {
  const { type, ...rest } = step.action;
  const fn = typeof type === 'string' && type !== '' ? type : 'action';
  const callId = `step-${step.index}`;
  const at = isoInstant(step.at);
  const call: ChatMessageAssistant = {
    role: 'assistant',
    content: '',
    source: 'generate',
    model,
    tool_calls: [{ id: callId, function: fn, arguments: toJsonObject(rest), type: 'function' }],
    metadata: { step: step.index, at },
  };
  const result: ChatMessageTool = {
    role: 'tool',
    content: step.outcome !== '' || step.error === null ? step.outcome : step.error,
    tool_call_id: callId,
    function: fn,
    ...(step.error === null ? {} : { error: { type: 'unknown', message: step.error } }),
    metadata: { step: step.index, reward: finiteOrNull(step.reward), at },
  };
  return [call, result];
}
