import type { SqlConnection } from '../../database/sql-connection';
import { ConflictError } from '../../common/errors/domain-errors';

/** A run cell a reset tried to claim is finished or being filled (409). */
export class CellTakenError extends ConflictError {}

/*
 * The run-cell statements of the step path: a reset claims its cell, the step that ends an episode finishes it,
 * the idle sweep abandons it, each in the same transaction as the episode's own write, so a cell and its episode
 * never disagree (docs/evaluating-agents.md, "Cells are filled exactly once"). Snapshotted with the others in
 * queries/run-cell-statements.sql.
 */

/** The cell states a reset may claim: never filled, or whose last attempt was abandoned or failed. */
export const CLAIMABLE_CELL_STATES = ['pending', 'abandoned', 'failed'] as const;

/** An attempt's wall time: from the claim (the episode's reset) to `@at`, in whole milliseconds, never negative. */
const WALL_MS = `CASE WHEN started_at IS NULL THEN NULL WHEN epoch_ms(@at) > epoch_ms(started_at) THEN epoch_ms(@at) - epoch_ms(started_at) ELSE 0 END`;

export const RUN_CELL_STATEMENTS = {
  selectRunForReset: `SELECT id, api_key_id AS "apiKeyId", name, agent, split, feedback, families_json AS "familiesJson", seeds_json AS "seedsJson",
       trials, grader_version AS "graderVersion", generators_json AS "generatorsJson", status
  FROM runs WHERE id = ? AND tenant_id = ?`,
  selectCell: `SELECT status, episode_id AS "episodeId" FROM run_cells WHERE run_id = ? AND tenant_id = ? AND task_id = ? AND seed = ? AND trial = ?`,
  selectNextClaimableCells: `SELECT task_id AS "taskId", seed, trial FROM run_cells
  WHERE tenant_id = ? AND run_id = ? AND status IN ('pending', 'abandoned', 'failed') ORDER BY position LIMIT ?`,
  claimCell: `UPDATE run_cells SET status = 'active', episode_id = ?, attempts = attempts + 1, termination = NULL, score_milli = NULL,
  started_at = ?, finished_at = NULL, wall_ms = NULL
WHERE run_id = ? AND tenant_id = ? AND task_id = ? AND seed = ? AND trial = ? AND status IN ('pending', 'abandoned', 'failed')`,
  finishCell: `UPDATE run_cells SET status = 'finished', termination = @termination, score_milli = @scoreMilli, finished_at = @at, wall_ms = ${WALL_MS}
WHERE tenant_id = @tenantId AND run_id = @runId AND episode_id = @episodeId AND status = 'active'`,
  completeRunIfFilled: `UPDATE runs SET status = 'complete', completed_at = @at
WHERE id = @runId AND tenant_id = @tenantId AND status = 'open'
  AND NOT EXISTS (SELECT 1 FROM run_cells WHERE tenant_id = @tenantId AND run_id = @runId AND status != 'finished')`,
  giveUpCell: `UPDATE run_cells SET status = 'finished', termination = 'gave_up', finished_at = @at, wall_ms = ${WALL_MS},
  score_milli = (SELECT score_milli FROM episodes WHERE id = @episodeId AND tenant_id = @tenantId)
WHERE tenant_id = @tenantId AND episode_id = @episodeId AND status = 'active' RETURNING run_id AS "runId"`,
  endCellAttempt: `UPDATE run_cells SET status = @status, termination = @termination, finished_at = @at, wall_ms = ${WALL_MS}
WHERE tenant_id = @tenantId AND episode_id = @episodeId AND status = 'active'`,
} as const;

export interface RunForReset {
  id: string;
  apiKeyId: string | null;
  name: string;
  agent: string;
  split: string;
  feedback: string;
  familiesJson: string;
  seedsJson: string;
  trials: number;
  graderVersion: number;
  generatorsJson: string;
  status: string;
}

export interface CellKey {
  runId: string;
  taskId: string;
  seed: number;
  trial: number;
}

export async function selectRunForReset(sql: SqlConnection, tenantId: string, runId: string): Promise<RunForReset | null> {
  return ((await sql.get(RUN_CELL_STATEMENTS.selectRunForReset, [runId, tenantId])) as RunForReset | undefined) ?? null;
}

export async function selectCell(sql: SqlConnection, tenantId: string, cell: CellKey): Promise<{ status: string; episodeId: string | null } | null> {
  const row = (await sql.get(RUN_CELL_STATEMENTS.selectCell, [cell.runId, tenantId, cell.taskId, cell.seed, cell.trial]));
  return (row as { status: string; episodeId: string | null } | undefined) ?? null;
}

/** The first `limit` cells of the run, in hand-out order, that a reset may claim (none: the run has none left). */
export async function selectNextClaimableCells(sql: SqlConnection, tenantId: string, runId: string, limit: number): Promise<Omit<CellKey, 'runId'>[]> {
  return (await sql.all(RUN_CELL_STATEMENTS.selectNextClaimableCells, [tenantId, runId, limit])) as Omit<CellKey, 'runId'>[];
}

/** Makes `episodeId` the cell's current attempt, if the cell may be claimed; false when it may not (no row changed). */
export async function claimCell(sql: SqlConnection, tenantId: string, cell: CellKey, episodeId: string, at: Date): Promise<boolean> {
  const { changes } = (await sql.run(RUN_CELL_STATEMENTS.claimCell, [episodeId, at, cell.runId, tenantId, cell.taskId, cell.seed, cell.trial]));
  return changes === 1;
}

/**
 * The episode ended: its cell (if this episode is still the cell's current attempt) is finished with its score,
 * and the run completes when that was its last unfinished cell.
 */
export async function finishCellOf(
  sql: SqlConnection,
  tenantId: string,
  episode: { runId: string; episodeId: string },
  ending: { termination: string; scoreMilli: number; at: Date },
): Promise<void> {
  const at = ending.at;
  const { runId, episodeId } = episode;
  const { changes } = (await sql.run(RUN_CELL_STATEMENTS.finishCell, { termination: ending.termination, scoreMilli: ending.scoreMilli, at, tenantId, runId, episodeId }));
  if (changes === 1) await sql.run(RUN_CELL_STATEMENTS.completeRunIfFilled, { at, runId, tenantId });
}

/**
 * The agent gave up on the episode (it stopped acting): its cell is finished with the score the episode had, and the
 * run completes when that was its last unfinished cell. False when the episode is not its cell's active attempt.
 */
export async function giveUpCellOf(sql: SqlConnection, tenantId: string, episodeId: string, at: Date): Promise<boolean> {
  const row = (await sql.get(RUN_CELL_STATEMENTS.giveUpCell, { at, tenantId, episodeId })) as { runId: string } | undefined;
  if (!row) return false;
  await sql.run(RUN_CELL_STATEMENTS.completeRunIfFilled, { at, runId: row.runId, tenantId });
  return true;
}

/**
 * The episode's attempt at its cell ended without a result: "abandoned" (the idle sweep) or "failed" (the agent
 * reported an infrastructure error). Either may be filled again. Nothing happens when the episode is no longer the
 * cell's current attempt (or was never in a run).
 */
export async function endCellAttempt(
  sql: SqlConnection,
  tenantId: string,
  episodeId: string,
  ending: { status: 'abandoned' | 'failed'; termination: 'abandoned' | 'infrastructure_error'; at: Date },
): Promise<boolean> {
  const { changes } = (await sql.run(RUN_CELL_STATEMENTS.endCellAttempt, { status: ending.status, termination: ending.termination, at: ending.at, tenantId, episodeId }));
  return changes === 1;
}
