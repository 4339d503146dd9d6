import {
  createSupportDeskClient,
  type Action,
  type ResetRequest,
  type StepResponse,
  type SupportDeskClient,
} from '../../client/supportdesk-client';
import type { components } from '../../client/schema';
import type { Json } from '../../src/common/json';
import { HttpStatusError, retryingFetch, UnreachableError, type RetryOptions } from './http-retry';

/*
 * The SupportDesk side of the runner: the typed client (client/supportdesk-client.ts) with retries on network
 * failures, 429 and 5xx. The run routes (issue 25) are not in the generated client yet, so they go
 * through `untyped` below, the one place to switch over once `npm run client` has regenerated it.
 */

export type Split = 'test' | 'train' | 'canonical';
export type Feedback = 'final' | 'dense';

export interface CreateRunBody {
  name: string;
  agent: string;
  model?: string;
  families: string[] | 'all';
  split?: Split;
  seeds?: number[];
  seed_count?: number;
  trials: number;
  feedback?: Feedback;
  /** A cell succeeds when its score is at least this (the server's default when left out). */
  success_threshold?: number;
  metadata?: Record<string, Json>;
}

export interface RunProgress {
  cells: number;
  pending: number;
  active: number;
  finished: number;
  failed: number;
  abandoned: number;
}

export interface Run {
  run_id: string;
  name: string;
  agent: string;
  model: string | null;
  split: Split;
  feedback: Feedback;
  families: string[];
  seeds: number[];
  trials: number;
  success_threshold: number;
  status: 'open' | 'complete';
  progress: RunProgress;
  /** The server's figures (report-table.ts reads them); null for an agent key, `results_withheld` then says why. */
  results: RunResults | null;
  results_withheld: string | null;
}

/** An estimate and its interval (the run's `method` says which); all null where there is no data yet. */
export interface Interval {
  estimate: number | null;
  low: number | null;
  high: number | null;
}

/** A family's, or the whole run's, figures over its finished cells. */
export interface GroupSummary {
  cells: number;
  seeds: number;
  mean_score: Interval;
  success_rate: Interval;
  /** k = 1…trials. */
  pass_hat_k: ({ k: number } & Interval)[];
  flip_rate: number | null;
}

export interface RunTotals {
  steps: number;
  mean_steps: number | null;
  mean_wall_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
}

/** The figures of a run as GET /runs/{run_id} gives them to a reader. */
export interface RunResults {
  success_threshold: number;
  overall: GroupSummary;
  families: (GroupSummary & { task_id: string; totals?: RunTotals })[];
  totals: RunTotals;
  method: { resamples: number; seed: number; level: number; estimand: string; resampling: string };
}

export interface Cell {
  task_id: string;
  seed: number;
  trial: number;
  status: 'pending' | 'active' | 'finished' | 'abandoned' | 'failed';
  episode_id: string | null;
  attempts: number;
  termination: 'resolved' | 'out_of_steps' | 'gave_up' | 'abandoned' | 'infrastructure_error' | null;
  wall_ms: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  score?: number | null;
}

export interface CellKey {
  task_id: string;
  seed: number;
  trial: number;
}

export interface EpisodeReport {
  input_tokens?: number;
  output_tokens?: number;
  infrastructure_error?: string;
  gave_up?: true;
}

/** POST /reset {run_id}'s answer: the episode, and the cell it fills. */
export type StartedEpisode = components['schemas']['ResetResponseDto'] & { cell: CellKey };

/** The untyped view of the client the run routes use until the generated client has them. */
interface UntypedClient {
  GET(path: string, init?: { params?: { path?: Record<string, string>; query?: Record<string, string | number> } }): Promise<ClientResult>;
  POST(path: string, init?: { params?: { path?: Record<string, string> }; body?: unknown }): Promise<ClientResult>;
}
interface ClientResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export class SupportDeskApi {
  private readonly client: SupportDeskClient;
  /** The same server with the reader key: only for the table at the end. */
  private readonly reader: SupportDeskClient | null;

  constructor(
    private readonly base: string,
    keys: { agentKey?: string; readerKey?: string },
    retry: RetryOptions,
  ) {
    this.client = createSupportDeskClient(base, { apiKey: keys.agentKey, fetch: retryingFetch(retry) });
    this.reader = keys.readerKey === undefined ? null : createSupportDeskClient(base, { apiKey: keys.readerKey, fetch: retryingFetch(retry) });
  }

  get hasReaderKey(): boolean {
    return this.reader !== null;
  }

  async actionSchema(): Promise<Record<string, Json>> {
    return this.unwrap(await this.call(() => this.client.GET('/action_schema'))) as Record<string, Json>;
  }

  async createRun(body: CreateRunBody): Promise<Run> {
    return this.unwrap(await this.call(() => untyped(this.client).POST('/runs', { body }))) as Run;
  }

  /** The run as the agent key sees it, or as the reader key does (with its results) when `asReader` and one was given. */
  async run(runId: string, asReader = false): Promise<Run> {
    const client = asReader && this.reader ? this.reader : this.client;
    return this.unwrap(await this.call(() => untyped(client).GET('/runs/{run_id}', { params: { path: { run_id: runId } } }))) as Run;
  }

  /** Every cell of the run, page after page. */
  async cells(runId: string): Promise<Cell[]> {
    const cells: Cell[] = [];
    let cursor: string | null = null;
    do {
      const query: Record<string, string | number> = { limit: 500, ...(cursor ? { cursor } : {}) };
      const page = this.unwrap(
        await this.call(() => untyped(this.client).GET('/runs/{run_id}/cells', { params: { path: { run_id: runId }, query } })),
      ) as { cells: Cell[]; next_cursor: string | null };
      cells.push(...page.cells);
      cursor = page.next_cursor;
    } while (cursor);
    return cells;
  }

  /**
   * Starts an episode on the run's next cell to fill, or returns null when the run has none left (409: every cell
   * is finished or being filled). `onOtherConflict` hears a 409 whose message does not say so, which is still read as
   * "nothing to fill" (a run with no claimable cell is the only conflict a bare {run_id} can meet).
   */
  async startNextCell(runId: string, onOtherConflict?: (message: string) => void): Promise<StartedEpisode | null> {
    const result = await this.call(() => this.resetRaw(runId));
    if (result.response.status === 409) {
      const message = errorMessage(result.error);
      if (!/no cell/i.test(message)) onOtherConflict?.(message);
      return null;
    }
    const started = this.unwrap(result);
    const cell = (started.info as { run?: CellKey | null }).run;
    if (!cell) throw new Error(`${this.base} answered POST /reset {run_id} without info.run: a server without evaluation runs?`);
    return { ...started, cell: { task_id: cell.task_id, seed: cell.seed, trial: cell.trial } };
  }

  /** A step's response, or the validation error for a malformed action (422, which uses no step). */
  async step(episodeId: string, action: Record<string, unknown>, requestId: string): Promise<StepResponse | { error: string }> {
    // The model's arguments are checked by the server, not by the compiler: they come from a model. The request id
    // makes a retried step (a lost answer) apply once.
    const result = await this.call(() =>
      this.client.POST('/step', { body: { episode_id: episodeId, action: action as Action, request_id: requestId } }),
    );
    if (result.response.status === 422) return { error: errorMessage(result.error) || 'invalid action' };
    return this.unwrap(result);
  }

  async report(runId: string, episodeId: string, body: EpisodeReport): Promise<Cell> {
    return this.unwrap(
      await this.call(() =>
        untyped(this.client).POST('/runs/{run_id}/episodes/{episode_id}/report', { params: { path: { run_id: runId, episode_id: episodeId } }, body }),
      ),
    ) as Cell;
  }

  private resetRaw(runId: string) {
    // `run_id` is not in the generated ResetRequest yet.
    return this.client.POST('/reset', { body: { run_id: runId } as ResetRequest });
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof UnreachableError) throw new UnreachableError(`the SupportDesk server is unreachable (${this.base}): ${error.message}`);
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

/** What the runner uses of the server (a fake in the runner's unit specs). */
export type RunsPort = Pick<SupportDeskApi, 'actionSchema' | 'createRun' | 'run' | 'startNextCell' | 'step' | 'report'>;

function untyped(client: SupportDeskClient): UntypedClient {
  return client as unknown as UntypedClient;
}

/** The `message` of the service's error body (docs/api.md), or the body itself. */
export function errorMessage(body: unknown): string {
  if (body !== null && typeof body === 'object' && 'message' in body) {
    const message = (body as { message: unknown }).message;
    return Array.isArray(message) ? message.join('; ') : String(message);
  }
  return typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
}
