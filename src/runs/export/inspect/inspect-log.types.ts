/**
 * The part of Inspect AI's log model (inspect_ai/log/_log.py, inspect_ai/model/_chat_message.py; JSON schema in
 * test/fixtures/inspect/log-schema.json) that the export writes. Field names are Inspect's. Optional fields we
 * never set are left out; a field that is absent is what Inspect itself writes for None (it dumps with
 * exclude_none).
 */

export type InspectJson = null | boolean | number | string | InspectJson[] | { [key: string]: InspectJson };
export type InspectJsonObject = { [key: string]: InspectJson };

/** `EvalStatus`. */
export type EvalStatus = 'started' | 'success' | 'cancelled' | 'error';

export interface ModelUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
}

export interface EvalDataset {
  name?: string;
  location?: string;
  samples?: number;
  sample_ids?: string[];
  shuffled?: boolean;
}

export interface EvalConfig {
  epochs?: number;
  epochs_reducer?: string[];
  fail_on_error?: boolean;
  log_samples?: boolean;
}

export interface EvalMetricDefinition {
  name: string;
  options?: InspectJsonObject;
}

export interface EvalScorer {
  name: string;
  options?: InspectJsonObject;
  metrics?: EvalMetricDefinition[];
  metadata?: InspectJsonObject;
}

export interface EvalSpec {
  eval_id: string;
  run_id: string;
  created: string;
  task: string;
  task_id: string;
  task_version: number | string;
  task_display_name?: string;
  task_attribs: InspectJsonObject;
  task_args: InspectJsonObject;
  task_args_passed: InspectJsonObject;
  solver?: string;
  solver_args?: InspectJsonObject;
  solver_args_passed?: InspectJsonObject;
  tags?: string[];
  dataset: EvalDataset;
  model: string;
  model_generate_config: InspectJsonObject;
  model_args: InspectJsonObject;
  config: EvalConfig;
  packages: Record<string, string>;
  metadata?: InspectJsonObject;
  scorers?: EvalScorer[];
}

export interface EvalPlanStep {
  solver: string;
  params: InspectJsonObject;
  params_passed: InspectJsonObject;
}

export interface EvalPlan {
  name: string;
  steps: EvalPlanStep[];
  config: InspectJsonObject;
}

/** `LogStart` (inspect_ai/log/_recorders/eval.py): `_journal/start.json`. */
export interface LogStart {
  version: number;
  eval: EvalSpec;
  plan: EvalPlan;
}

export interface EvalMetric {
  name: string;
  value: number;
  params: InspectJsonObject;
  metadata?: InspectJsonObject;
}

export interface EvalScore {
  name: string;
  scorer: string;
  reducer?: string;
  scored_samples?: number;
  unscored_samples?: number;
  params: InspectJsonObject;
  metrics: Record<string, EvalMetric>;
  metadata?: InspectJsonObject;
}

export interface EvalResults {
  total_samples: number;
  completed_samples: number;
  scores: EvalScore[];
  metadata?: InspectJsonObject;
}

export interface EvalStats {
  /** ISO 8601, or "" when unknown. */
  started_at: string;
  completed_at: string;
  model_usage: Record<string, ModelUsage>;
  role_usage: Record<string, ModelUsage>;
  connection_limit_history: never[];
}

/** `EvalLog` without samples and reductions: `header.json`. */
export interface EvalLogHeader {
  version: number;
  status: EvalStatus;
  eval: EvalSpec;
  plan: EvalPlan;
  results?: EvalResults;
  stats: EvalStats;
  invalidated: boolean;
  tags: string[];
  metadata: InspectJsonObject;
}

export interface ToolCall {
  id: string;
  function: string;
  arguments: InspectJsonObject;
  type: 'function';
}

export type ToolCallErrorType = 'parsing' | 'timeout' | 'permission' | 'limit' | 'unknown';

export interface ChatMessageUser {
  role: 'user';
  content: string;
  source?: 'input' | 'generate';
}

export interface ChatMessageAssistant {
  role: 'assistant';
  content: string;
  id?: string;
  source?: 'input' | 'generate';
  model?: string;
  tool_calls: ToolCall[];
  metadata?: InspectJsonObject;
}

export interface ChatMessageTool {
  role: 'tool';
  content: string;
  tool_call_id: string;
  function: string;
  error?: { type: ToolCallErrorType; message: string };
  metadata?: InspectJsonObject;
}

export type ChatMessage = ChatMessageUser | ChatMessageAssistant | ChatMessageTool;

export interface ModelOutput {
  model: string;
  choices: never[];
  completion: string;
  usage?: ModelUsage;
}

/** `Score`; the value is a number in [0, 1] (a missing score is no Score at all, never NaN). */
export interface Score {
  value: number;
  answer?: string;
  explanation?: string;
  metadata?: InspectJsonObject;
  history: never[];
}

export interface EvalError {
  message: string;
  traceback: string;
  traceback_ansi: string;
}

export interface EvalSample {
  id: string;
  epoch: number;
  input: string;
  target: string;
  messages: ChatMessage[];
  output: ModelOutput;
  scores?: Record<string, Score>;
  metadata: InspectJsonObject;
  store: InspectJsonObject;
  events: never[];
  model_usage: Record<string, ModelUsage>;
  role_usage: Record<string, ModelUsage>;
  started_at?: string;
  completed_at?: string;
  total_time?: number;
  uuid?: string;
  error?: EvalError;
  attachments: Record<string, string>;
}

/** `EvalSampleSummary`: one row of `summaries.json`. */
export interface EvalSampleSummary {
  id: string;
  epoch: number;
  input: string;
  target: string;
  metadata: InspectJsonObject;
  scores?: Record<string, Score>;
  model_usage: Record<string, ModelUsage>;
  role_usage: Record<string, ModelUsage>;
  started_at?: string;
  completed_at?: string;
  total_time?: number;
  uuid?: string;
  error?: string;
  completed: boolean;
  message_count: number;
}

/** `EvalSampleScore`: a sample's score reduced over its epochs. */
export interface EvalSampleScore {
  value: number;
  sample_id: string;
  history: never[];
}

/** `EvalSampleReductions`: one entry of `reductions.json`. */
export interface EvalSampleReductions {
  scorer: string;
  reducer?: string;
  samples: EvalSampleScore[];
}
