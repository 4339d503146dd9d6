import type { FeedbackMode } from '../episodes';
import type { CellDto, CellStatus, RunDto, RunProgressDto, RunResultsDto, RunStatus, Termination } from './dto/run.dto';
import type { RunSplit } from './dto/create-run.dto';
import type { CellRow, RunRow } from './run-statements';

/** A stored timestamp ("…+00:00") as the API writes times (RFC 3339, Z). */
export function isoTime(stored: number): string {
  return new Date(stored).toISOString();
}

export function presentProgress(cellCount: number, counts: Map<string, number>): RunProgressDto {
  const n = (status: CellStatus) => counts.get(status) ?? 0;
  return { cells: cellCount, pending: n('pending'), active: n('active'), finished: n('finished'), abandoned: n('abandoned'), failed: n('failed') };
}

export function presentRun(run: RunRow, progress: RunProgressDto, results: RunResultsDto | null, withheld: string | null): RunDto {
  return {
    run_id: run.id,
    name: run.name,
    agent: run.agent,
    model: run.model,
    split: run.split as RunSplit,
    feedback: run.feedback as FeedbackMode,
    families: JSON.parse(run.familiesJson) as string[],
    seeds: JSON.parse(run.seedsJson) as number[],
    trials: run.trials,
    success_threshold: run.successMilli / 1000,
    metadata: JSON.parse(run.metadataJson) as Record<string, unknown>,
    config_hash: run.configHash,
    versions: { grader: run.graderVersion, generators: JSON.parse(run.generatorsJson) as Record<string, string> },
    status: run.status as RunStatus,
    created_at: isoTime(run.createdAt),
    completed_at: run.completedAt === null ? null : isoTime(run.completedAt),
    created_by_key: run.apiKeyId,
    progress,
    results,
    results_withheld: withheld,
  };
}

export function presentCell(cell: CellRow, seesScores: boolean): CellDto {
  return {
    task_id: cell.taskId,
    seed: cell.seed,
    trial: cell.trial,
    status: cell.status as CellStatus,
    episode_id: cell.episodeId,
    attempts: cell.attempts,
    termination: cell.termination as Termination | null,
    wall_ms: cell.wallMs,
    input_tokens: cell.inputTokens,
    output_tokens: cell.outputTokens,
    score: seesScores && cell.scoreMilli !== null ? cell.scoreMilli / 1000 : null,
  };
}
