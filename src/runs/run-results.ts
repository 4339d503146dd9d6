import type { CellWithEpisodeRow } from './run-statements';
import type { FamilyResultsDto, RunResultsDto, RunTotalsDto, TerminationCountsDto } from './dto/run.dto';
import { summarizeRun, type CellOutcome } from './statistics';

/** Bootstrap resamples behind every interval of a run's results, and the seed that makes them reproducible. */
export const RESULT_RESAMPLES = 2000;
export const RESULT_BOOTSTRAP_SEED = 20261202;

/** Component names and the columns of a cell's episode that hold their points. */
const COMPONENTS = [
  ['opened_target', 'openedMilli'],
  ['policy_consulted', 'policyMilli'],
  ['priority', 'priorityMilli'],
  ['routing', 'routingMilli'],
  ['reply_coverage', 'replyMilli'],
  ['resolution', 'resolutionMilli'],
] as const;

/** What a run's results are computed from: its families, k, success threshold, and every cell. */
export interface ResultsInput {
  families: string[];
  trials: number;
  successMilli: number;
  cells: CellWithEpisodeRow[];
}

/** The outcomes of the finished cells: the unit every statistic of a run is computed from. */
export function outcomesOf(cells: CellWithEpisodeRow[], successMilli: number): CellOutcome[] {
  return cells
    .filter((cell) => cell.status === 'finished' && cell.scoreMilli !== null)
    .map((cell) => ({ family: cell.taskId, seed: cell.seed, trial: cell.trial, score: cell.scoreMilli! / 1000, success: cell.scoreMilli! >= successMilli }));
}

/**
 * A run's results over its finished cells: the statistics (means, pass^k and flip rates with their intervals), and
 * per family the component means, penalties, how attempts ended, steps, wall time and tokens.
 */
export function runResults(input: ResultsInput): RunResultsDto {
  const summary = summarizeRun(outcomesOf(input.cells, input.successMilli), {
    maxK: input.trials,
    resamples: RESULT_RESAMPLES,
    seed: RESULT_BOOTSTRAP_SEED,
  });
  const families: FamilyResultsDto[] = input.families.map((taskId) => {
    const cells = input.cells.filter((cell) => cell.taskId === taskId);
    return {
      task_id: taskId,
      ...(summary.families[taskId] ?? emptyGroup(input.trials)),
      components: componentMeans(cells),
      mean_penalty: meanPenalty(cells),
      terminations: terminationsOf(cells),
      totals: totalsOf(cells),
    };
  });
  return {
    success_threshold: input.successMilli / 1000,
    overall: summary.overall,
    families,
    terminations: terminationsOf(input.cells),
    totals: totalsOf(input.cells),
    method: summary.method,
  };
}

function emptyGroup(trials: number) {
  const none = { estimate: null, low: null, high: null };
  return {
    cells: 0,
    seeds: 0,
    mean_score: none,
    success_rate: none,
    pass_hat_k: Array.from({ length: trials }, (_, i) => ({ k: i + 1, ...none })),
    flip_rate: null,
  };
}

const finished = (cells: CellWithEpisodeRow[]) => cells.filter((cell) => cell.status === 'finished' && cell.scoreMilli !== null);

function componentMeans(cells: CellWithEpisodeRow[]): { name: string; mean: number }[] {
  const done = finished(cells);
  return COMPONENTS.map(([name, column]) => ({ name, mean: done.length === 0 ? 0 : round(sum(done.map((c) => c[column] ?? 0)) / done.length / 1000) }));
}

/** Points taken off by penalties: what the components earned beyond the score. */
function meanPenalty(cells: CellWithEpisodeRow[]): number {
  const done = finished(cells);
  if (done.length === 0) return 0;
  const off = done.map((cell) => Math.max(0, sum(COMPONENTS.map(([, column]) => cell[column] ?? 0)) - cell.scoreMilli!));
  return round(sum(off) / done.length / 1000);
}

function terminationsOf(cells: CellWithEpisodeRow[]): TerminationCountsDto {
  const count = (termination: string) => cells.filter((cell) => cell.termination === termination).length;
  return {
    resolved: count('resolved'),
    out_of_steps: count('out_of_steps'),
    gave_up: count('gave_up'),
    abandoned: count('abandoned'),
    infrastructure_error: count('infrastructure_error'),
    retries: sum(cells.map((cell) => Math.max(0, cell.attempts - 1))),
  };
}

function totalsOf(cells: CellWithEpisodeRow[]): RunTotalsDto {
  const done = finished(cells);
  const steps = sum(done.map((cell) => cell.steps ?? 0));
  const reported = (values: (number | null)[]) => (values.every((v) => v === null) ? null : sum(values.map((v) => v ?? 0)));
  return {
    steps,
    mean_steps: done.length === 0 ? null : round(steps / done.length),
    mean_wall_ms: done.length === 0 ? null : Math.round(sum(done.map((cell) => cell.wallMs ?? 0)) / done.length),
    input_tokens: reported(cells.map((cell) => cell.inputTokens)),
    output_tokens: reported(cells.map((cell) => cell.outputTokens)),
  };
}

function sum(values: number[]): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;
