import type { SqlConnection } from '../database/sql-connection';
import { episodeSerial, hashHex, STORED_STATE_JSON } from '../episodes';

/*
 * The statements of the runs feature, on the direct connection (one run's 1,200 cells are one statement each
 * inside one transaction, and a run's results are one join). Snapshotted with their query plans in
 * queries/run-statements.sql by test/medium/sql-snapshots.spec.ts.
 */

const RUN_COLUMNS = `id, tenant_id AS "tenantId", api_key_id AS "apiKeyId", name, agent, model, split, feedback, families_json AS "familiesJson",
       seeds_json AS "seedsJson", trials, success_milli AS "successMilli", metadata_json AS "metadataJson", config_hash AS "configHash",
       grader_version AS "graderVersion", generators_json AS "generatorsJson", status, cell_count AS "cellCount", created_at AS "createdAt",
       completed_at AS "completedAt"`;

export const RUN_STATEMENTS = {
  insertRun: `INSERT INTO runs (id, tenant_id, api_key_id, name, agent, model, split, feedback, families_json, seeds_json, trials, success_milli,
  metadata_json, config_hash, grader_version, generators_json, status, cell_count, created_at)
VALUES (@id, @tenantId, @apiKeyId, @name, @agent, @model, @split, @feedback, @familiesJson, @seedsJson, @trials, @successMilli,
  @metadataJson, @configHash, @graderVersion, @generatorsJson, 'open', @cellCount, @createdAt)`,
  insertCell: `INSERT INTO run_cells (run_id, tenant_id, task_id, seed, trial, position) VALUES (?, ?, ?, ?, ?, ?)`,
  selectRun: `SELECT ${RUN_COLUMNS} FROM runs WHERE id = ? AND tenant_id = ?`,
  /** Newest first, from a (created_at, id) cursor; every filter optional (a null parameter matches all). */
  listRuns: `SELECT ${RUN_COLUMNS} FROM runs
  WHERE tenant_id = @tenantId AND (api_key_id = @apiKeyId OR @apiKeyId IS NULL) AND (agent = @agent OR @agent IS NULL)
    AND (status = @status OR @status IS NULL) AND (split = @split OR @split IS NULL)
    AND (created_at < @cursorAt OR (created_at = @cursorAt AND id < @cursorId) OR @cursorAt IS NULL)
  ORDER BY created_at DESC, id DESC LIMIT @limit`,
  /** The newest complete run of each (agent, configuration) on a split: the leaderboard's candidates. */
  latestCompleteRuns: `SELECT ${RUN_COLUMNS} FROM runs AS r
  WHERE tenant_id = @tenantId AND split = @split AND status = 'complete'
    AND NOT EXISTS (SELECT 1 FROM runs AS newer WHERE newer.tenant_id = r.tenant_id AND newer.split = r.split AND newer.status = 'complete'
      AND newer.config_hash = r.config_hash AND newer.agent = r.agent
      AND (newer.completed_at > r.completed_at OR (newer.completed_at = r.completed_at AND newer.id > r.id)))
  ORDER BY completed_at DESC, id DESC`,
  cellCounts: `SELECT status, COUNT(*) AS n FROM run_cells WHERE tenant_id = ? AND run_id = ? GROUP BY status`,
  listCells: `SELECT task_id AS "taskId", seed, trial, position, status, episode_id AS "episodeId", attempts, termination, score_milli AS "scoreMilli",
       wall_ms AS "wallMs", input_tokens AS "inputTokens", output_tokens AS "outputTokens"
  FROM run_cells WHERE tenant_id = @tenantId AND run_id = @runId AND (status = @status OR @status IS NULL) AND position > @after
  ORDER BY position LIMIT @limit`,
  /** Every cell with what its results need: the counted (or current) episode's steps and component points. */
  cellsWithEpisodes: `SELECT c.task_id AS "taskId", c.seed, c.trial, c.position, c.status, c.episode_id AS "episodeId", c.attempts, c.termination,
       c.score_milli AS "scoreMilli", c.wall_ms AS "wallMs", c.input_tokens AS "inputTokens", c.output_tokens AS "outputTokens",
       e.step_count AS steps, e.opened_milli AS "openedMilli", e.policy_milli AS "policyMilli", e.priority_milli AS "priorityMilli",
       e.routing_milli AS "routingMilli", e.reply_milli AS "replyMilli", e.resolution_milli AS "resolutionMilli"
  FROM run_cells AS c LEFT JOIN episodes AS e ON e.id = c.episode_id AND e.tenant_id = c.tenant_id
  WHERE c.tenant_id = ? AND c.run_id = ? ORDER BY c.position`,
  selectCellOfEpisode: `SELECT c.task_id AS "taskId", c.seed, c.trial, c.position, c.status, c.episode_id AS "episodeId", c.attempts, c.termination,
       c.score_milli AS "scoreMilli", c.wall_ms AS "wallMs", c.input_tokens AS "inputTokens", c.output_tokens AS "outputTokens"
  FROM run_cells AS c WHERE c.tenant_id = ? AND c.run_id = ? AND c.episode_id = ?`,
  addTokens: `UPDATE run_cells SET input_tokens = COALESCE(COALESCE(input_tokens, 0) + @input, input_tokens),
  output_tokens = COALESCE(COALESCE(output_tokens, 0) + @output, output_tokens)
WHERE tenant_id = @tenantId AND run_id = @runId AND episode_id = @episodeId`,
  episodeForExport: `SELECT task_version AS "taskVersion", grader_version AS "graderVersion", seed,
       ${STORED_STATE_JSON} AS "stateJson"
  FROM episodes WHERE tenant_id = ? AND id = ?`,
  episodeActionLog: `SELECT step_index AS "stepIndex", action_json AS "actionJson", reward_milli AS "rewardMilli", score_after_milli AS "scoreAfterMilli", outcome, error,
       created_at AS "createdAt", ${hashHex('hash')} AS hash
  FROM action_log WHERE episode_serial = ${episodeSerial('@episode', '@tenant')} ORDER BY step_index`,
  episodeActions: `SELECT action_json AS "actionJson" FROM action_log WHERE episode_serial = ${episodeSerial('@episode', '@tenant')} ORDER BY step_index`,
  insertRegrade: `INSERT INTO run_regrades (id, run_id, tenant_id, grader_version, episode_count, changed_count, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?)`,
  insertRegradeResult: `INSERT INTO run_regrade_results (regrade_id, tenant_id, task_id, seed, trial, episode_id, score_milli, before_milli, changed, components_json)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  selectRegrade: `SELECT id, run_id AS "runId", grader_version AS "graderVersion", episode_count AS "episodeCount", changed_count AS "changedCount", created_at AS "createdAt"
  FROM run_regrades WHERE id = ? AND tenant_id = ? AND run_id = ?`,
  regradeResults: `SELECT r.task_id AS "taskId", r.seed, r.trial, r.episode_id AS "episodeId", r.score_milli AS "scoreMilli", r.before_milli AS "beforeMilli",
       CASE WHEN r.changed THEN 1 ELSE 0 END AS changed, r.components_json AS "componentsJson"
  FROM run_regrade_results AS r JOIN run_cells AS c ON c.tenant_id = r.tenant_id AND c.run_id = @runId AND c.task_id = r.task_id AND c.seed = r.seed AND c.trial = r.trial
  WHERE r.tenant_id = @tenantId AND r.regrade_id = @regradeId ORDER BY c.position`,
} as const;

export interface RunRow {
  id: string;
  tenantId: string;
  apiKeyId: string | null;
  name: string;
  agent: string;
  model: string | null;
  split: string;
  feedback: string;
  familiesJson: string;
  seedsJson: string;
  trials: number;
  successMilli: number;
  metadataJson: string;
  configHash: string;
  graderVersion: number;
  generatorsJson: string;
  status: string;
  cellCount: number;
  createdAt: number;
  completedAt: number | null;
}

export interface CellRow {
  taskId: string;
  seed: number;
  trial: number;
  position: number;
  status: string;
  episodeId: string | null;
  attempts: number;
  termination: string | null;
  scoreMilli: number | null;
  wallMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
}

/** A cell with its episode's steps and component points (null where the cell has no episode). */
export interface CellWithEpisodeRow extends CellRow {
  steps: number | null;
  openedMilli: number | null;
  policyMilli: number | null;
  priorityMilli: number | null;
  routingMilli: number | null;
  replyMilli: number | null;
  resolutionMilli: number | null;
}

export interface NewRunRow extends Omit<RunRow, 'status' | 'completedAt' | 'createdAt'> {
  createdAt: Date;
}

export interface RegradeRow {
  id: string;
  runId: string;
  graderVersion: number;
  episodeCount: number;
  changedCount: number;
  createdAt: number;
}

export interface RegradeResultRow {
  taskId: string;
  seed: number;
  trial: number;
  episodeId: string;
  scoreMilli: number;
  beforeMilli: number;
  /** 1 or 0 (a boolean column, read as a number on both databases: the statement says so). */
  changed: number;
  componentsJson: string;
}

export async function insertRunWithCells(sql: SqlConnection, run: NewRunRow, cells: { taskId: string; seed: number; trial: number }[]): Promise<void> {
  await sql.run(RUN_STATEMENTS.insertRun, { ...run });
  for (const [position, cell] of cells.entries()) await sql.run(RUN_STATEMENTS.insertCell, [run.id, run.tenantId, cell.taskId, cell.seed, cell.trial, position]);
}

export interface RunListFilters {
  apiKeyId: string | null;
  agent: string | null;
  status: string | null;
  split: string | null;
}

export function listRuns(sql: SqlConnection, tenantId: string, filters: RunListFilters, cursor: { at: Date; id: string } | null, limit: number): Promise<RunRow[]> {
  return sql.all<RunRow>(RUN_STATEMENTS.listRuns, { tenantId, ...filters, cursorAt: cursor?.at ?? null, cursorId: cursor?.id ?? null, limit });
}
