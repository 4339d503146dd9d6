import type { EvalSample, EvalSampleSummary, InspectJson, InspectJsonObject, Score } from './inspect-log.types';

/**
 * A sample's row of summaries.json, as EvalSample.summary() makes it (inspect_ai/log/_log.py): no messages, no
 * output, and the input, target and metadata thinned as inspect_ai/log/_util.py thins them, so the row stays
 * small whatever the sample holds.
 */
export function sampleSummary(sample: EvalSample): EvalSampleSummary {
  return {
    id: sample.id,
    epoch: sample.epoch,
    input: truncateText(sample.input),
    target: truncateText(sample.target),
    metadata: thinMetadata(sample.metadata),
    ...(sample.scores === undefined ? {} : { scores: thinScores(sample.scores) }),
    model_usage: sample.model_usage,
    role_usage: sample.role_usage,
    ...(sample.started_at === undefined ? {} : { started_at: sample.started_at }),
    ...(sample.completed_at === undefined ? {} : { completed_at: sample.completed_at }),
    ...(sample.total_time === undefined ? {} : { total_time: sample.total_time }),
    ...(sample.uuid === undefined ? {} : { uuid: sample.uuid }),
    ...(sample.error === undefined ? {} : { error: sample.error.message }),
    // Inspect writes a summary when a sample ends; an unfinished cell of an open run is not complete.
    completed: sample.completed_at !== undefined,
    message_count: sample.messages.length,
  };
}

/** MAX_TEXT_LENGTH in inspect_ai/log/_util.py. */
const MAX_TEXT_LENGTH = 5120;
/** The budget thin_metadata gives a metadata value or a string (THIN_TEXT_WIDTH, and the 1k size check). */
const THIN_LIMIT = 1024;

/** truncate_text. */
export function truncateText(text: string, max = MAX_TEXT_LENGTH): string {
  return text.length > max ? `${text.slice(0, max)}...\n(content truncated)` : text;
}

/** thin_text, without textwrap's whitespace collapsing: a string cut to 1k characters with "..." marking the cut. */
function thinText(text: string): string {
  return text.length > THIN_LIMIT ? `${text.slice(0, THIN_LIMIT - 3)}...` : text;
}

/** thin_metadata: scalars kept, strings thinned, structures kept only under 1k of JSON. */
export function thinMetadata(metadata: InspectJsonObject): InspectJsonObject {
  const out: InspectJsonObject = {};
  for (const [key, value] of Object.entries(metadata)) out[key] = thinValue(value);
  return out;
}

function thinValue(value: InspectJson): InspectJson {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return thinText(value);
  return JSON.stringify(value).length <= THIN_LIMIT ? value : 'Key removed from summary (> 1k)';
}

function thinScores(scores: Record<string, Score>): Record<string, Score> {
  const out: Record<string, Score> = {};
  for (const [name, score] of Object.entries(scores)) {
    out[name] = {
      value: score.value,
      ...(score.answer === undefined ? {} : { answer: thinText(score.answer) }),
      ...(score.explanation === undefined ? {} : { explanation: thinText(score.explanation) }),
      ...(score.metadata === undefined ? {} : { metadata: thinMetadata(score.metadata) }),
      history: [],
    };
  }
  return out;
}
