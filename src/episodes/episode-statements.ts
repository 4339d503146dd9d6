import type { SqlConnection } from '../database/sql-connection';
import type { Episode } from '../generated/prisma/client';
import type { ComponentColumns } from './score-columns';
import { STORED_STATE_JSON } from './active-state';
import { SNAPSHOT_DROPPED } from './finished-state';
import { episodeSerial, storedHash, storedTime, tenantSerial } from './log-columns';
import type { ActionLogRecord, EpisodeRecord, StoredStepRequest } from './episode.repository';

/*
 * The statements of the step hot path (reset, step and reads of one episode), on the direct connection. They
 * write exactly the columns and formats the Prisma schema declares, so Prisma reads these rows like its own (the
 * e2e suites read every row written here back through Prisma). Their text is snapshotted in
 * queries/episode-statements.sql: a change to SQL shows up there as a reviewable diff.
 */

/** The summary columns a step rewrites, in the order the statements list them. */
const SUMMARY_COLUMNS = [
  'status',
  'step_count',
  'score_milli',
  'opened_milli',
  'policy_milli',
  'priority_milli',
  'routing_milli',
  'reply_milli',
  'resolution_milli',
] as const;

/** Every statement this file runs, by name. */
export const EPISODE_STATEMENTS = {
  selectEpisode: `SELECT id, tenant_id AS "tenantId", api_key_id AS "apiKeyId", alias, task_id AS "taskId", task_version AS "taskVersion",
       grader_version AS "graderVersion", feedback, seed, status, version, agent, run_label AS "runLabel", tags_json AS "tagsJson",
       ${STORED_STATE_JSON} AS "stateJson", chain_head AS "chainHead",
       chain_scheme AS "chainScheme", chain_key_id AS "chainKeyId", split_source AS "splitSource", split_key_id AS "splitKeyId", run_id AS "runId", run_trial AS "runTrial", created_at AS "createdAt", updated_at AS "updatedAt"
  FROM episodes WHERE id = ? AND tenant_id = ?`,
  selectEpisodeIfChanged: `SELECT id, tenant_id AS "tenantId", api_key_id AS "apiKeyId", alias, task_id AS "taskId", task_version AS "taskVersion",
       grader_version AS "graderVersion", feedback, seed, status, version, agent, run_label AS "runLabel", tags_json AS "tagsJson",
       ${STORED_STATE_JSON} AS "stateJson", chain_head AS "chainHead",
       chain_scheme AS "chainScheme", chain_key_id AS "chainKeyId", split_source AS "splitSource", split_key_id AS "splitKeyId", run_id AS "runId", run_trial AS "runTrial", created_at AS "createdAt", updated_at AS "updatedAt"
  FROM episodes WHERE id = ? AND tenant_id = ? AND version <> ?`,
  selectEpisodeVersion: `SELECT version FROM episodes WHERE id = ? AND tenant_id = ?`,
  selectEpisodeOwner: `SELECT api_key_id AS "apiKeyId" FROM episodes WHERE id = ? AND tenant_id = ?`,
  selectEpisodeIdByAlias: `SELECT id FROM episodes WHERE tenant_id = ? AND api_key_id = ? AND alias = ?`,
  countActiveEpisodes: `SELECT COUNT(*) AS n FROM episodes WHERE tenant_id = ? AND status = 'active'`,
  selectTenantExists: `SELECT 1 AS present FROM tenants WHERE id = ? AND deleting_at IS NULL`,
  insertEpisode: `INSERT INTO episodes (id, tenant_id, api_key_id, alias, task_id, task_version, grader_version, feedback, seed, version, agent, run_label,
  tags_json, chain_head, chain_scheme, chain_key_id, split_source, split_key_id, run_id, run_trial, ${SUMMARY_COLUMNS.join(', ')}, created_at, updated_at,
  ledger_seq, ledger_mac, facts_sha256, state_json)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${SUMMARY_COLUMNS.map(() => '?').join(', ')}, ?, ?, ?, ?, ?, '')`,
  insertEpisodeTag: `INSERT INTO episode_tags (episode_id, tenant_id, tag) VALUES (?, ?, ?)`,
  updateEpisodeStep: `UPDATE episodes SET version = version + 1, chain_head = ?, ${SUMMARY_COLUMNS.map((c) => `${c} = ?`).join(', ')}, updated_at = ?
WHERE id = ? AND tenant_id = ? AND version = ?`,
  insertActionLog: `INSERT INTO action_log (episode_serial, tenant_serial, step_index, action_json, reward_milli, score_after_milli, outcome,
  error, created_at, hash, ledger_seq, ledger_mac, ledger_key_id, ledger_status)
VALUES (${episodeSerial()}, ${tenantSerial()}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  selectActionJsons: `SELECT action_json AS "actionJson" FROM action_log WHERE episode_serial = ${episodeSerial()} ORDER BY step_index`,
  selectStepRequest: `SELECT action_hash AS "actionHash", response_json AS "responseJson"
  FROM step_requests WHERE episode_id = ? AND request_id = ? AND tenant_id = ?`,
  // Through each tenant's active episodes (tenant_id, status, created_at): they are few, and finished episodes, nearly
  // all of them, carry no index entry for the sweep.
  expireIdleEpisodes: `UPDATE episodes SET status = 'expired', version = version + 1, state_json = ''
WHERE tenant_id IN (SELECT id FROM tenants) AND status = 'active' AND updated_at < ? RETURNING id, tenant_id AS "tenantId"`,
  expireEpisode: `UPDATE episodes SET status = 'expired', version = version + 1, state_json = '' WHERE id = ? AND tenant_id = ? AND status = 'active'`,
  // A running episode's state (active_states): written by every step, deleted when the episode ends.
  saveActiveState: `INSERT INTO active_states (episode_serial, state_json) VALUES (${episodeSerial()}, ?)
ON CONFLICT (episode_serial) DO UPDATE SET state_json = excluded.state_json`,
  deleteActiveState: `DELETE FROM active_states WHERE episode_serial = ${episodeSerial()}`,
  deleteEndedStates: `DELETE FROM active_states WHERE (SELECT e.status FROM episodes e WHERE e.serial = active_states.episode_serial) <> 'active'`,
  insertStepRequest: `INSERT INTO step_requests (episode_id, tenant_id, request_id, step_index, action_hash, response_json, created_at)
VALUES (?, ?, ?, ?, ?, ?, ?)`,
} as const;

/** One episode with its state snapshot: the columns a step reads, named and typed as Prisma's `Episode` names them. */
export type EpisodeWithStateRow = Pick<
  Episode,
  | 'id'
  | 'tenantId'
  | 'apiKeyId'
  | 'alias'
  | 'taskId'
  | 'taskVersion'
  | 'graderVersion'
  | 'feedback'
  | 'seed'
  | 'status'
  | 'version'
  | 'agent'
  | 'runLabel'
  | 'tagsJson'
  | 'stateJson'
  | 'chainHead'
  | 'chainScheme'
  | 'chainKeyId'
  | 'splitSource'
  | 'splitKeyId'
  | 'runId'
  | 'runTrial'
  | 'createdAt'
  | 'updatedAt'
>;

export async function selectEpisode(sql: SqlConnection, tenantId: string, episodeId: string): Promise<EpisodeWithStateRow | null> {
  const row = await sql.get<Omit<EpisodeWithStateRow, 'createdAt' | 'updatedAt'> & { createdAt: number; updatedAt: number }>(EPISODE_STATEMENTS.selectEpisode, [
    episodeId,
    tenantId,
  ]);
  if (!row) return null;
  return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
}

/**
 * The row, only when its version is no longer `version` (another process stepped or expired the episode since the
 * copy of that version was cached); null when it still is (or is gone, which the step's conditioned write finds).
 */
export async function selectEpisodeIfChanged(sql: SqlConnection, tenantId: string, episodeId: string, version: number): Promise<EpisodeWithStateRow | null> {
  const row = await sql.get<Omit<EpisodeWithStateRow, 'createdAt' | 'updatedAt'> & { createdAt: number; updatedAt: number }>(EPISODE_STATEMENTS.selectEpisodeIfChanged, [
    episodeId,
    tenantId,
    version,
  ]);
  if (!row) return null;
  return { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
}

/** The row's version alone: tells whether a cached copy is still the stored episode. */
export async function selectEpisodeVersion(sql: SqlConnection, tenantId: string, episodeId: string): Promise<number | null> {
  const row = await sql.get<{ version: number }>(EPISODE_STATEMENTS.selectEpisodeVersion, [episodeId, tenantId]);
  return row?.version ?? null;
}

/** Whether an episode has this id in the tenant, and if so which key started it (null: none recorded). */
export async function selectEpisodeOwner(sql: SqlConnection, tenantId: string, episodeId: string): Promise<{ apiKeyId: string | null } | null> {
  return (await sql.get<{ apiKeyId: string | null }>(EPISODE_STATEMENTS.selectEpisodeOwner, [episodeId, tenantId])) ?? null;
}

/** The id of the episode an agent key named `alias` (episode.repository.ts EpisodeRecord.alias). */
export async function selectEpisodeIdByAlias(sql: SqlConnection, tenantId: string, apiKeyId: string, alias: string): Promise<string | null> {
  const row = await sql.get<{ id: string }>(EPISODE_STATEMENTS.selectEpisodeIdByAlias, [tenantId, apiKeyId, alias]);
  return row?.id ?? null;
}

/** Whether the tenant still exists: it may have been deleted since the request was authenticated. */
export async function tenantExists(sql: SqlConnection, tenantId: string): Promise<boolean> {
  return (await sql.get(EPISODE_STATEMENTS.selectTenantExists, [tenantId])) !== undefined;
}

export async function countActiveEpisodes(sql: SqlConnection, tenantId: string): Promise<number> {
  return (await sql.get<{ n: number }>(EPISODE_STATEMENTS.countActiveEpisodes, [tenantId]))!.n;
}
/** The columns a step rewrites: the snapshot, its summary, and the component scores for statistics. */
export interface EpisodeSummary extends ComponentColumns {
  status: string;
  stepCount: number;
  scoreMilli: number;
  stateJson: string;
}

const summaryValues = (s: EpisodeSummary) => [
  s.status,
  s.stepCount,
  s.scoreMilli,
  s.openedMilli,
  s.policyMilli,
  s.priorityMilli,
  s.routingMilli,
  s.replyMilli,
  s.resolutionMilli,
];

/** The episode's "episode.created" ledger entry, stored in its row (ledger-rows.ts): place, MAC and facts digest. */
export interface CreatedLedgerColumns {
  seq: number;
  mac: string;
  factsSha256: string;
}

export async function insertEpisode(
  sql: SqlConnection,
  episode: Omit<EpisodeRecord, 'state' | 'status' | 'updatedAt' | 'version'>,
  summary: EpisodeSummary,
  ledger: CreatedLedgerColumns,
): Promise<void> {
  const now = episode.createdAt;
  await sql.run(EPISODE_STATEMENTS.insertEpisode, [
      episode.id,
      episode.tenantId,
      episode.apiKeyId,
      episode.alias,
      episode.taskId,
      episode.taskVersion,
      episode.graderVersion,
      episode.feedback,
      episode.seed,
      episode.agent,
      episode.runLabel,
      JSON.stringify(episode.tags),
      episode.chainHead,
      episode.chainScheme,
      episode.chainKeyId,
      episode.splitSource,
      episode.splitKeyId,
      episode.runId,
      episode.runTrial,
      ...summaryValues(summary),
      now,
      now,
      ledger.seq,
      Buffer.from(ledger.mac, 'hex'),
      Buffer.from(ledger.factsSha256, 'hex'),
  ]);
  await saveActiveState(sql, episode.tenantId, episode.id, summary.stateJson);
  for (const tag of episode.tags) await sql.run(EPISODE_STATEMENTS.insertEpisodeTag, [episode.id, episode.tenantId, tag]);
}

/** The step's write of the episode row, only if it is still at `expectedVersion`; false when it was not. */
export async function updateEpisodeStep(
  sql: SqlConnection,
  key: { tenantId: string; episodeId: string; expectedVersion: number },
  chainHead: string,
  summary: EpisodeSummary,
  updatedAt: Date,
): Promise<boolean> {
  const { changes } = await sql.run(EPISODE_STATEMENTS.updateEpisodeStep, [
    chainHead,
    ...summaryValues(summary),
    updatedAt,
    key.episodeId,
    key.tenantId,
    key.expectedVersion,
  ]);
  if (changes !== 1) return false;
  await saveActiveState(sql, key.tenantId, key.episodeId, summary.stateJson);
  return true;
}

/** The episode's state while it runs (its active_states row); none once it has ended (`stateJson` is ""). */
async function saveActiveState(sql: SqlConnection, tenantId: string, episodeId: string, stateJson: string): Promise<void> {
  if (stateJson === SNAPSHOT_DROPPED) await sql.run(EPISODE_STATEMENTS.deleteActiveState, [episodeId, tenantId]);
  else await sql.run(EPISODE_STATEMENTS.saveActiveState, [episodeId, tenantId, stateJson]);
}

/**
 * The step's entry in its tenant ledger, stored in its row (ledger/ledger-rows.ts): the place and MAC, the key when it
 * is not the episode's chain key, and the status after the step when that is not "active" (null otherwise).
 */
export interface StepLedgerColumns {
  seq: number;
  mac: string;
  keyId: string | null;
  status: string | null;
}

export type ActionLogInsert = ActionLogRecord & { episodeId: string; tenantId: string; ledger: StepLedgerColumns };

export async function insertActionLog(sql: SqlConnection, row: ActionLogInsert): Promise<void> {
  await sql.run(EPISODE_STATEMENTS.insertActionLog, [
      row.episodeId,
      row.tenantId,
      row.tenantId,
      row.stepIndex,
      row.actionJson,
      row.rewardMilli,
      row.scoreAfterMilli,
      row.outcome,
      row.error,
      storedTime(row.createdAt),
      storedHash(row.hash),
      row.ledger.seq,
      Buffer.from(row.ledger.mac, 'hex'),
      row.ledger.keyId,
      row.ledger.status,
  ]);
}

/** An episode's logged actions in step order (canonical JSON): what replaying its state needs. */
export async function selectActionJsons(sql: SqlConnection, tenantId: string, episodeId: string): Promise<string[]> {
  return (await sql.all<{ actionJson: string }>(EPISODE_STATEMENTS.selectActionJsons, [episodeId, tenantId])).map((r) => r.actionJson);
}

export async function selectStepRequest(sql: SqlConnection, tenantId: string, episodeId: string, requestId: string): Promise<StoredStepRequest | null> {
  return (await sql.get<StoredStepRequest>(EPISODE_STATEMENTS.selectStepRequest, [episodeId, requestId, tenantId])) ?? null;
}

export async function insertStepRequest(
  sql: SqlConnection,
  row: { episodeId: string; tenantId: string; requestId: string; stepIndex: number; actionHash: string; responseJson: string; createdAt: Date },
): Promise<void> {
  await sql.run(EPISODE_STATEMENTS.insertStepRequest, [row.episodeId, row.tenantId, row.requestId, row.stepIndex, row.actionHash, row.responseJson, row.createdAt]);
}

/** Marks every tenant's active episodes not stepped since `cutoff` expired; returns which. */
export async function expireIdleEpisodes(sql: SqlConnection, cutoff: Date): Promise<{ id: string; tenantId: string }[]> {
  const expired = await sql.all<{ id: string; tenantId: string }>(EPISODE_STATEMENTS.expireIdleEpisodes, [cutoff]);
  if (expired.length > 0) await sql.run(EPISODE_STATEMENTS.deleteEndedStates);
  return expired;
}

/** Marks one active episode expired (its run attempt failed); false when it was not active. */
export async function expireEpisode(sql: SqlConnection, tenantId: string, episodeId: string): Promise<boolean> {
  if ((await sql.run(EPISODE_STATEMENTS.expireEpisode, [episodeId, tenantId])).changes !== 1) return false;
  await sql.run(EPISODE_STATEMENTS.deleteActiveState, [episodeId, tenantId]);
  return true;
}
