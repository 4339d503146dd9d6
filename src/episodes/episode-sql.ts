import type { EpisodeState } from '../engine/state';
import type { SqlConnection } from '../prisma/group-commit';
import type { ComponentColumns } from './action-chain';
import type { EpisodeRecord, EpisodeRowStatus } from './episode.repository';

/*
 * The statements of the step hot path (reset and step), on the direct connection. They write exactly the
 * columns and formats the Prisma schema declares, so Prisma reads these rows like its own (the e2e suites read
 * every row written here back through Prisma).
 */

/** DateTime as Prisma stores it in SQLite: ISO 8601 text with an explicit UTC offset, so text order is time order. */
export const sqliteTimestamp = (date: Date): string => date.toISOString().replace('Z', '+00:00');

interface EpisodeRow {
  id: string;
  tenant_id: string;
  task_id: string;
  task_version: string;
  seed: number;
  status: string;
  version: number;
  agent: string | null;
  run_label: string | null;
  tags_json: string;
  state_json: string;
  chain_head: string;
  created_at: string;
  updated_at: string;
}

export function selectEpisode(sql: SqlConnection, tenantId: string, episodeId: string): EpisodeRecord | null {
  const row = sql
    .statement(
      `SELECT id, tenant_id, task_id, task_version, seed, status, version, agent, run_label, tags_json, state_json,
              chain_head, created_at, updated_at
         FROM episodes WHERE id = ? AND tenant_id = ?`,
    )
    .get(episodeId, tenantId) as EpisodeRow | undefined;
  if (!row) return null;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    status: row.status as EpisodeRowStatus,
    taskId: row.task_id,
    taskVersion: row.task_version,
    seed: row.seed,
    version: row.version,
    agent: row.agent,
    runLabel: row.run_label,
    tags: JSON.parse(row.tags_json) as string[],
    state: JSON.parse(row.state_json) as EpisodeState,
    chainHead: row.chain_head,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export function countActiveEpisodes(sql: SqlConnection, tenantId: string): number {
  return (sql.statement(`SELECT COUNT(*) AS n FROM episodes WHERE tenant_id = ? AND status = 'active'`).get(tenantId) as { n: number }).n;
}

/** The columns a step rewrites: the snapshot, its summary, and the component scores for statistics. */
export interface EpisodeSummary extends ComponentColumns {
  status: string;
  stepCount: number;
  scoreMilli: number;
  stateJson: string;
}

export function insertEpisode(
  sql: SqlConnection,
  episode: Omit<EpisodeRecord, 'state' | 'status' | 'updatedAt' | 'chainHead' | 'version'>,
  summary: EpisodeSummary,
): void {
  const now = sqliteTimestamp(episode.createdAt);
  sql
    .statement(
      `INSERT INTO episodes (id, tenant_id, task_id, task_version, seed, status, step_count, score_milli, version,
         state_json, agent, run_label, tags_json, opened_milli, policy_milli, priority_milli, routing_milli, reply_milli,
         resolution_milli, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      episode.id,
      episode.tenantId,
      episode.taskId,
      episode.taskVersion,
      episode.seed,
      summary.status,
      summary.stepCount,
      summary.scoreMilli,
      summary.stateJson,
      episode.agent,
      episode.runLabel,
      JSON.stringify(episode.tags),
      summary.openedMilli,
      summary.policyMilli,
      summary.priorityMilli,
      summary.routingMilli,
      summary.replyMilli,
      summary.resolutionMilli,
      now,
      now,
    );
  const insertTag = sql.statement('INSERT INTO episode_tags (episode_id, tenant_id, tag) VALUES (?, ?, ?)');
  for (const tag of episode.tags) insertTag.run(episode.id, episode.tenantId, tag);
}

/** The step's write of the episode row, only if it is still at `expectedVersion`; false when it was not. */
export function updateEpisodeStep(
  sql: SqlConnection,
  key: { tenantId: string; episodeId: string; expectedVersion: number },
  chainHead: string,
  summary: EpisodeSummary,
  updatedAt: Date,
): boolean {
  const { changes } = sql
    .statement(
      `UPDATE episodes SET version = version + 1, chain_head = ?, status = ?, step_count = ?, score_milli = ?,
         state_json = ?, opened_milli = ?, policy_milli = ?, priority_milli = ?, routing_milli = ?, reply_milli = ?,
         resolution_milli = ?, updated_at = ?
       WHERE id = ? AND tenant_id = ? AND version = ?`,
    )
    .run(
      chainHead,
      summary.status,
      summary.stepCount,
      summary.scoreMilli,
      summary.stateJson,
      summary.openedMilli,
      summary.policyMilli,
      summary.priorityMilli,
      summary.routingMilli,
      summary.replyMilli,
      summary.resolutionMilli,
      sqliteTimestamp(updatedAt),
      key.episodeId,
      key.tenantId,
      key.expectedVersion,
    );
  return changes === 1;
}

export interface ActionLogInsert {
  episodeId: string;
  tenantId: string;
  stepIndex: number;
  actionJson: string;
  rewardMilli: number;
  scoreAfterMilli: number;
  outcome: string;
  error: string | null;
  createdAt: Date;
  hash: string;
}

export function insertActionLog(sql: SqlConnection, row: ActionLogInsert): void {
  sql
    .statement(
      `INSERT INTO action_log (episode_id, tenant_id, step_index, action_json, reward_milli, score_after_milli, outcome,
         error, created_at, hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      row.episodeId,
      row.tenantId,
      row.stepIndex,
      row.actionJson,
      row.rewardMilli,
      row.scoreAfterMilli,
      row.outcome,
      row.error,
      sqliteTimestamp(row.createdAt),
      row.hash,
    );
}

export interface StoredStepRequest {
  actionHash: string;
  responseJson: string;
}

export function selectStepRequest(sql: SqlConnection, tenantId: string, episodeId: string, requestId: string): StoredStepRequest | null {
  const row = sql
    .statement(
      'SELECT action_hash AS actionHash, response_json AS responseJson FROM step_requests WHERE episode_id = ? AND request_id = ? AND tenant_id = ?',
    )
    .get(episodeId, requestId, tenantId) as StoredStepRequest | undefined;
  return row ?? null;
}

export function insertStepRequest(
  sql: SqlConnection,
  row: { episodeId: string; tenantId: string; requestId: string; stepIndex: number; actionHash: string; responseJson: string; createdAt: Date },
): void {
  sql
    .statement(
      `INSERT INTO step_requests (episode_id, tenant_id, request_id, step_index, action_hash, response_json, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(row.episodeId, row.tenantId, row.requestId, row.stepIndex, row.actionHash, row.responseJson, sqliteTimestamp(row.createdAt));
}
