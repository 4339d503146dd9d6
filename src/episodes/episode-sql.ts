import type { Episode } from '../generated/prisma/client';
import type { SqlConnection } from '../prisma/group-commit';
import type { ComponentColumns } from './action-chain';
import type { ActionLogRecord, EpisodeRecord } from './episode.repository';

/*
 * The statements of the step hot path (reset and step), on the direct connection. They write exactly the
 * columns and formats the Prisma schema declares, so Prisma reads these rows like its own (the e2e suites read
 * every row written here back through Prisma).
 */

/** DateTime as Prisma stores it in SQLite: ISO 8601 text with an explicit UTC offset, so text order is time order. */
export const sqliteTimestamp = (date: Date): string => date.toISOString().replace('Z', '+00:00');

/** The episode columns a step needs, named and typed as Prisma's `Episode` model names them. */
export type EpisodeRow = Pick<
  Episode,
  'id' | 'tenantId' | 'taskId' | 'taskVersion' | 'seed' | 'status' | 'version' | 'agent' | 'runLabel' | 'tagsJson' | 'stateJson' | 'chainHead' | 'createdAt' | 'updatedAt'
>;

export function selectEpisode(sql: SqlConnection, tenantId: string, episodeId: string): EpisodeRow | null {
  const row = sql
    .statement(
      `SELECT id, tenant_id AS tenantId, task_id AS taskId, task_version AS taskVersion, seed, status, version, agent,
              run_label AS runLabel, tags_json AS tagsJson, state_json AS stateJson, chain_head AS chainHead,
              created_at AS createdAt, updated_at AS updatedAt
         FROM episodes WHERE id = ? AND tenant_id = ?`,
    )
    .get(episodeId, tenantId) as (Omit<EpisodeRow, 'createdAt' | 'updatedAt'> & { createdAt: string; updatedAt: string }) | undefined;
  if (!row) return null;
  return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
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

/** The summary columns in the order both statements below list them. */
const SUMMARY_COLUMNS = [
  'status',
  'step_count',
  'score_milli',
  'state_json',
  'opened_milli',
  'policy_milli',
  'priority_milli',
  'routing_milli',
  'reply_milli',
  'resolution_milli',
] as const;

const summaryValues = (s: EpisodeSummary) => [
  s.status,
  s.stepCount,
  s.scoreMilli,
  s.stateJson,
  s.openedMilli,
  s.policyMilli,
  s.priorityMilli,
  s.routingMilli,
  s.replyMilli,
  s.resolutionMilli,
];

export function insertEpisode(
  sql: SqlConnection,
  episode: Omit<EpisodeRecord, 'state' | 'status' | 'updatedAt' | 'chainHead' | 'version'>,
  summary: EpisodeSummary,
): void {
  const now = sqliteTimestamp(episode.createdAt);
  sql
    .statement(
      `INSERT INTO episodes (id, tenant_id, task_id, task_version, seed, version, agent, run_label, tags_json,
         ${SUMMARY_COLUMNS.join(', ')}, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ${SUMMARY_COLUMNS.map(() => '?').join(', ')}, ?, ?)`,
    )
    .run(
      episode.id,
      episode.tenantId,
      episode.taskId,
      episode.taskVersion,
      episode.seed,
      episode.agent,
      episode.runLabel,
      JSON.stringify(episode.tags),
      ...summaryValues(summary),
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
      `UPDATE episodes SET version = version + 1, chain_head = ?, ${SUMMARY_COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated_at = ?
       WHERE id = ? AND tenant_id = ? AND version = ?`,
    )
    .run(chainHead, ...summaryValues(summary), sqliteTimestamp(updatedAt), key.episodeId, key.tenantId, key.expectedVersion);
  return changes === 1;
}

export type ActionLogInsert = ActionLogRecord & { episodeId: string; tenantId: string };

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
