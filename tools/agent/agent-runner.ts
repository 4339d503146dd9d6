import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import { actionToolSchemas, strictSchema } from '../../src/mcp/tool-schemas';
import type { Json } from '../../src/common/json';
import { EpisodeInterrupted, ModelStoppedActing, playEpisode } from './episode';
import { HttpStatusError, UnreachableError, type RetryOptions } from './http-retry';
import { ModelCallAborted, ModelClient, ModelFailure } from './model-client';
import { ProgressDisplay, type ProgressStream } from './progress';
import { SupportDeskApi, type CreateRunBody, type Run, type RunsPort, type StartedEpisode } from './runs-api';
import { UsageTally } from './usage-tally';

export interface AgentRunOptions {
  /** The SupportDesk server, e.g. http://localhost:7860. */
  url: string;
  /** An agent key, if the server requires keys: it creates (or owns) the run and plays its episodes. */
  agentKey?: string;
  /** A reader key of the same tenant: the run's results are read with it at the end. The model never sees it. */
  readerKey?: string;
  model: {
    /** An OpenAI-compatible …/v1 endpoint. */
    baseURL: string;
    /** Null: the resumed run's own model. */
    name: string | null;
    apiKey?: string;
    maxRetries?: number;
    timeoutMs?: number;
    fetch?: typeof fetch;
  };
  /** Resume a run, or create one (named after the model and the time unless a name is given). */
  run: { resume: string } | { create: Omit<CreateRunBody, 'name' | 'agent' | 'model'> & { name?: string } };
  /** Episodes played at once (default 4). */
  concurrency?: number;
  /** Show the model the score in each observation (default: never: it would be an oracle). */
  showScores?: boolean;
  /** Aborted on Ctrl-C: no further cell is taken, the model calls in flight are abandoned and their cells reported. */
  signal?: AbortSignal;
  /** stdout: every finished episode's OpenEnv lines, together. */
  log: (line: string) => void;
  /** stderr: progress and warnings (default: nowhere). */
  stderr?: ProgressStream;
  /** The progress as a bar redrawn in place (default: when `stderr` is a terminal). */
  progressTty?: boolean;
  /** Told the run as soon as it is created or found, before any cell is played. */
  onRun?: (run: Run) => void;
  retry?: Partial<RetryOptions>;
  /** For tests: the server as a fake (default: the typed client on `url` with the keys). */
  api?: RunsPort;
  /**
   * Failed attempts in a row (model or server failures, a model that stops calling tools) after which the runner
   * stops taking cells: the endpoint is down, or cannot do tool calls (default: concurrency + 2).
   */
  maxConsecutiveFailures?: number;
}

export interface AgentRunOutcome {
  /** The run at the end: read with the reader key when one was given (then with its results). */
  run: Run;
  /** done: no cell left to take; interrupted: the signal; stopped: too many failures in a row, or a server failure. */
  ending: 'done' | 'interrupted' | 'stopped';
  /**
   * Why it stopped, when it did. `endpoint`: the server or the model endpoint could not be reached, or kept failing
   * (the CLI exits 3); otherwise the server refused something or the runner failed (exit 1).
   */
  stopped?: { reason: string; endpoint: boolean };
  /** Cells this runner finished, and attempts that failed (reported, to be filled again). */
  filled: number;
  failedAttempts: number;
  /** Attempts in which the model answered without ever calling a tool. */
  episodesWithoutToolCalls: number;
}

/** The end-of-run warning for a model that answered without tool calls. */
export function noToolCallsWarning(episodes: number): string {
  return `warning: the model never called a tool in ${episodes} episode${episodes === 1 ? '' : 's'} — does the endpoint support tool calling?`;
}

/**
 * The six actions as Chat Completions function tools in strict mode: every property required, optional ones
 * nullable, no keywords strict mode refuses (the server still checks those constraints, and takes null as omitted).
 */
export function strictFunctionTools(actionSchema: Record<string, Json>): ChatCompletionFunctionTool[] {
  return actionToolSchemas(actionSchema).map((tool) => ({
    type: 'function' as const,
    function: {
      name: tool.name,
      description: tool.description,
      parameters: strictSchema(tool.parameters) as Record<string, unknown>,
      strict: true,
    },
  }));
}

/**
 * Creates or resumes an evaluation run and fills its cells: `concurrency` workers each ask the server for the next
 * cell (POST /reset {run_id}) until it has none left, play the episode with the model, and report the tokens the
 * endpoint counted. An attempt that cannot be finished — the model endpoint failed past the SDK's retries, the model
 * stopped calling tools, the run was interrupted — is reported as an infrastructure error, so the server hands the
 * cell out again (to this runner, or to the one that resumes the run).
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentRunOutcome> {
  const retry: RetryOptions = { attempts: 5, timeoutMs: 60_000, baseDelayMs: 500, ...options.retry };
  const api = options.api ?? new SupportDeskApi(options.url, { agentKey: options.agentKey, readerKey: options.readerKey }, retry);
  const stderr = options.stderr ?? { write: () => true };
  const concurrency = options.concurrency ?? 4;
  const maxConsecutiveFailures = options.maxConsecutiveFailures ?? concurrency + 2;

  const { run, modelName } = await openRun(api, options);
  options.onRun?.(run);
  const model = new ModelClient({
    baseURL: options.model.baseURL,
    model: modelName,
    apiKey: options.model.apiKey,
    maxRetries: options.model.maxRetries ?? 4,
    timeoutMs: options.model.timeoutMs ?? 120_000,
    fetch: options.model.fetch,
  });
  const tools = strictFunctionTools(await api.actionSchema());
  const progress = new ProgressDisplay(stderr, { total: run.progress.cells, finishedBefore: run.progress.finished, tty: options.progressTty });

  // One controller for every model call in flight: aborted on an interrupt, or when the server fails for good.
  const stop = new AbortController();
  let ending: AgentRunOutcome['ending'] = 'done';
  let stopped: AgentRunOutcome['stopped'];
  let takingCells = true;
  const onInterrupt = () => {
    if (ending === 'done') ending = 'interrupted';
    takingCells = false;
    stop.abort();
  };
  if (options.signal?.aborted) onInterrupt();
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  const halt = (reason: string, abortInFlight: boolean, endpoint: boolean) => {
    if (ending === 'done') {
      ending = 'stopped';
      stopped = { reason, endpoint };
    }
    takingCells = false;
    if (abortInFlight) stop.abort();
  };

  let filled = 0;
  let failedAttempts = 0;
  let consecutiveFailures = 0;
  let episodesWithoutToolCalls = 0;
  const stoppedReason = () => (ending === 'interrupted' ? 'interrupted' : `the runner stopped: ${stopped?.reason}`);
  const cellName = (started: StartedEpisode) => `${started.cell.task_id} seed ${started.cell.seed} trial ${started.cell.trial}`;

  /** Ends an attempt that could not be finished, on the server too, so the cell is handed out again. */
  const reportFailure = async (started: StartedEpisode, reason: string, usage?: UsageTally) => {
    try {
      // The server keeps at most 500 characters of it.
      await api.report(run.run_id, started.episode_id, { ...usage?.reportFields(), infrastructure_error: reason.slice(0, 500) || 'failed' });
    } catch (error) {
      progress.note(`warning: could not report the failed attempt at ${cellName(started)} (episode ${started.episode_id}): ${describe(error)}`);
    }
  };

  const worker = async () => {
    while (takingCells) {
      let started: StartedEpisode | null;
      try {
        started = await api.startNextCell(run.run_id, (message) => progress.note(`the server has no cell to hand out: ${message}`));
      } catch (error) {
        halt(describe(error), true, error instanceof UnreachableError);
        return;
      }
      if (started === null) return;
      if (!takingCells) {
        // The interrupt came while the server was starting this one: give it back at once.
        await reportFailure(started, stoppedReason());
        failedAttempts++;
        return;
      }
      progress.cellStarted();
      const usage = new UsageTally();
      try {
        const played = await playEpisode(started, {
          model,
          modelName,
          env: api,
          tools,
          showScores: options.showScores ?? false,
          successThreshold: run.success_threshold,
          signal: stop.signal,
          usage,
        });
        progress.above(() => played.lines.forEach((line) => options.log(line)));
        const tokens = usage.reportFields();
        if (tokens.input_tokens !== undefined) {
          try {
            await api.report(run.run_id, started.episode_id, tokens);
          } catch (error) {
            progress.note(`warning: could not report the tokens of ${cellName(started)} (episode ${started.episode_id}): ${describe(error)}`);
          }
        }
        filled++;
        consecutiveFailures = 0;
        progress.cellFinished(cellName(started));
      } catch (error) {
        if (error instanceof ModelStoppedActing && error.toolCalls > 0 && !stop.signal.aborted) {
          // The model acted, then stopped: that is how it plays this cell, so the cell counts with the score the
          // episode had (a retry would let a model that stalls on hard cases try them again until it does not).
          try {
            await api.report(run.run_id, started.episode_id, { ...usage.reportFields(), gave_up: true });
            filled++;
            consecutiveFailures = 0;
            progress.note(`warning: ${error.message} in ${cellName(started)}; the cell counts with the score it had`);
            progress.cellFinished(cellName(started));
            continue;
          } catch (reportError) {
            progress.note(`warning: could not report that the model gave up on ${cellName(started)} (episode ${started.episode_id}): ${describe(reportError)}`);
          }
        }
        const stoppedHere = stop.signal.aborted && (error instanceof ModelCallAborted || error instanceof EpisodeInterrupted);
        const reason = stoppedHere ? stoppedReason() : describe(error);
        if (error instanceof ModelStoppedActing && error.toolCalls === 0) {
          episodesWithoutToolCalls++;
          progress.note(`warning: the model answered without calling a tool in ${cellName(started)}`);
        }
        await reportFailure(started, reason, usage);
        failedAttempts++;
        progress.cellFailed(cellName(started), reason);
        if (stoppedHere) continue;
        if (error instanceof UnreachableError) {
          halt(reason, true, true);
        } else if (!(error instanceof ModelFailure || error instanceof ModelStoppedActing || isServerAnswer(error))) {
          // Not a failure of the model nor an answer of the server: a fault of the runner itself. Stop.
          halt(reason, true, false);
        } else if (++consecutiveFailures >= maxConsecutiveFailures) {
          halt(`${consecutiveFailures} attempts in a row failed; the last: ${reason}`, false, true);
        }
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: concurrency }, () => worker()));
  } finally {
    options.signal?.removeEventListener('abort', onInterrupt);
    progress.stop();
  }
  if (episodesWithoutToolCalls > 0) progress.note(noToolCallsWarning(episodesWithoutToolCalls));

  let final = run;
  try {
    final = await api.run(run.run_id, true);
  } catch (error) {
    progress.note(`warning: could not read run ${run.run_id} at the end: ${describe(error)}`);
  }
  return { run: final, ending, ...(stopped ? { stopped } : {}), filled, failedAttempts, episodesWithoutToolCalls };
}

/** The run to fill, and the model that plays it: --model, or a resumed run's own. */
async function openRun(api: RunsPort, options: AgentRunOptions): Promise<{ run: Run; modelName: string }> {
  if ('resume' in options.run) {
    const run = await api.run(options.run.resume);
    const modelName = options.model.name ?? run.model;
    if (!modelName) throw new RunSetupError(`run ${run.run_id} names no model: give --model`);
    if (options.model.name && run.model && options.model.name !== run.model) {
      throw new RunSetupError(`run ${run.run_id} is played by model ${run.model}, not ${options.model.name}: leave --model out, or create a run for it`);
    }
    return { run, modelName };
  }
  const modelName = options.model.name;
  if (!modelName) throw new RunSetupError('a new run needs a model');
  const { name, ...rest } = options.run.create;
  const run = await api.createRun({ name: name ?? `${modelName} ${new Date().toISOString().slice(0, 16)}Z`, agent: `llm:${modelName}`, model: modelName, ...rest });
  return { run, modelName };
}

/** The run cannot be filled as asked (a resumed run's model differs, none named). */
export class RunSetupError extends Error {}

/** An HTTP answer of the SupportDesk server (HttpStatusError): the attempt failed, the runner did not. */
function isServerAnswer(error: unknown): boolean {
  return error instanceof HttpStatusError;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
