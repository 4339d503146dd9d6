import type { GradeBreakdown } from '../engine/grader';
import type { EpisodeState, HistoryEntry } from '../engine/state';
import type { SplitSource } from '../families';
import type { CellKey } from './run-cells/run-cell-statements';
import type { PurgeRecord } from './purge/episode-purge';
import type { TenantDeletionRecord } from './purge/tenant-deletion';

/** POST /reset's `feedback`: "dense" (training: reward and score after every step) or "final" (evaluation). */
export const FEEDBACK_MODES = ['dense', 'final'] as const;
export type FeedbackMode = (typeof FEEDBACK_MODES)[number];

/** The episode's status as the API reports it: the engine's, or `expired` after inactivity. */
export type EpisodeRowStatus = 'active' | 'resolved' | 'out_of_steps' | 'expired';

export interface EpisodeRecord {
  id: string;
  tenantId: string;
  /** The API key that started it (null: anonymous, or before keys were recorded). */
  apiKeyId: string | null;
  /**
   * The episode_id its agent key chose when another key of the tenant already had an episode by that id: agent
   * keys name episodes in their own space, so it is stored under a fresh `id` and that key addresses it by its
   * alias. Null: everyone addresses it by `id`.
   */
  alias: string | null;
  status: EpisodeRowStatus;
  taskId: string;
  taskVersion: string;
  /** The grader that scores it (engine/grader-version.ts), fixed at reset. */
  graderVersion: number;
  /** What the agent is told while it runs (fixed at reset): rewards and score after every step, or only at the end. */
  feedback: FeedbackMode;
  seed: number;
  /**
   * The test split its instance was drawn from: "public" (the generator fed `seed`) or "private" (fed a seed derived
   * from it under the private-split key `splitKeyId`, src/tasks/private-split.ts). Fixed at reset.
   */
  splitSource: SplitSource;
  splitKeyId: string | null;
  /** The evaluation run whose cell (taskId, seed, runTrial) this episode fills; null outside runs. Fixed at reset. */
  runId: string | null;
  runTrial: number | null;
  version: number;
  agent: string | null;
  runLabel: string | null;
  tags: string[];
  state: EpisodeState;
  chainHead: string;
  /** The chain's scheme (hash-chain.ts CHAIN_SCHEMES) and the key its links are (or, for legacy ones, now) keyed with. */
  chainScheme: string;
  chainKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewEpisode {
  /** The id the caller chose, or a fresh one. */
  id: string;
  apiKeyId: string | null;
  /**
   * Whose space `id` is in: "key" for an agent key (another key's episode of the same id does not clash: this one
   * is stored under a fresh id with `id` as its alias), "tenant" for callers that see the whole tenant.
   */
  idSpace: 'key' | 'tenant';
  taskId: string;
  taskVersion: string;
  feedback: FeedbackMode;
  seed: number;
  splitSource: SplitSource;
  splitKeyId: string | null;
  agent: string | null;
  runLabel: string | null;
  tags: string[];
  state: EpisodeState;
  grade: GradeBreakdown;
  /**
   * The run cell the episode fills: claimed in the same write as the episode is created (ConflictError when it is
   * finished or being filled, InvalidFieldError when the run has no such cell); null outside runs.
   */
  cell: CellKey | null;
}

/** What one step changes: the new state, its grade, the log entry that explains it, and the response sent. */
export interface StepWrite {
  state: EpisodeState;
  grade: GradeBreakdown;
  entry: HistoryEntry;
  /** The step's canonical action as canonical JSON: the action-log row, and what its request's hash is of. */
  actionJson: string;
  /** Kept (as JSON) with the request id, when there is one, so a retry gets exactly this response. */
  response: unknown;
}

/** A client's request id for a step, with the hash of the action it was used for (sha256 of `actionJson`). */
export interface StepRequestKey {
  requestId: string;
  actionHash: string;
}

/** A request id already used on an episode: the action it was used for (hashed) and the response it got. */
export interface StoredStepRequest {
  actionHash: string;
  responseJson: string;
}

/** The episode row is no longer at the version a step was computed from (another writer moved it on): nothing was written. */
export class StaleEpisodeError extends Error {
  constructor() {
    super('the episode changed while this step was computed');
  }
}

export interface ActionLogRecord {
  stepIndex: number;
  actionJson: string;
  rewardMilli: number;
  scoreAfterMilli: number;
  outcome: string;
  error: string | null;
  createdAt: Date;
  hash: string;
}

/**
 * Persistence port for episodes. Every method takes the tenant first and scopes every query by it, so an
 * episode id alone can never reach another tenant's episode.
 */
export abstract class EpisodeRepository {
  /** Creates the episode unless the tenant already has `maxActive` active ones (0: no cap); then TooManyError. */
  abstract create(tenantId: string, episode: NewEpisode, maxActive: number): Promise<EpisodeRecord>;

  /** One episode with its state, as it is stored now (active ones from the same cache as steps). */
  abstract find(tenantId: string, episodeId: string): Promise<EpisodeRecord | null>;

  /**
   * The episode a step starts from: the cached copy of an active one without a look at the row (a hint: saveStep
   * writes only if the row is still at its version), else the row.
   */
  abstract findForStep(tenantId: string, episodeId: string): Promise<EpisodeRecord | null>;

  /** The id of the episode the agent key `apiKeyId` named `alias` (EpisodeRecord.alias), if it did. */
  abstract findIdByAlias(tenantId: string, apiKeyId: string, alias: string): Promise<string | null>;

  /** The tenant's most recently created episode (of one API key, when `apiKeyId` is given). */
  abstract findLatest(tenantId: string, apiKeyId?: string | null): Promise<EpisodeRecord | null>;

  /** What a request id was used for on this episode, if it was. */
  abstract findStepRequest(tenantId: string, episodeId: string, requestId: string): Promise<StoredStepRequest | null>;

  /**
   * Stores a step computed from `from`: the episode row, a hash-chained action-log row, the tenant's ledger entry
   * and the request id (when there is one), in one write that resolves once committed. Only if the row is still
   * at `from.version`; otherwise nothing is written and it throws StaleEpisodeError.
   */
  abstract saveStep(from: EpisodeRecord, step: StepWrite, request: StepRequestKey | null): Promise<void>;

  /** A system job, not a tenant's request: marks every tenant's active episodes idle since `cutoff` expired. */
  abstract expireIdleEpisodesOfAllTenants(cutoff: Date): Promise<number>;

  abstract listActions(tenantId: string, episodeId: string): Promise<ActionLogRecord[]>;

  /**
   * Ends an active run episode whose agent reported an infrastructure failure: the episode expires (a ledger entry,
   * like the idle sweep's) and its cell becomes "failed", to be filled again. False when the episode is not active or
   * no longer its cell's current attempt (nothing changes then).
   */
  abstract failRunAttempt(tenantId: string, episodeId: string): Promise<boolean>;

  /**
   * Ends an active run episode whose agent gave up (stopped acting): the episode expires and its cell is finished with
   * the score the episode had, termination "gave_up", counted like any finished cell. False (nothing changes) when the
   * episode is not active or no longer its cell's current attempt.
   */
  abstract giveUpRunAttempt(tenantId: string, episodeId: string): Promise<boolean>;

  /**
   * Retention: purges up to `limit` of the tenant's finished episodes that ended before its signed retention period
   * (the latest "tenant.retention" ledger entry), with their log and ledger entries, in one write
   * (purge/episode-purge.ts); what it removed. Nothing without a signed period.
   */
  abstract purgeFinished(tenantId: string, limit: number): Promise<PurgeRecord>;

  /** Sets (null: clears) the tenant's retention period: the column, the admin log and a signed ledger entry. */
  abstract setRetention(tenantId: string, days: number | null): Promise<void>;

  /**
   * A tenant's deletion (purge/tenant-deletion.ts), a short write at a time: `beginTenantDeletion` marks it and revokes
   * its keys (`resumed`: a deletion cut short, already marked), `deleteTenantEpisodes` removes up to `limit` of its
   * episodes (0 once none is left), `finishTenantDeletion` removes the rest and the tenant.
   */
  abstract beginTenantDeletion(tenantId: string, slug: string, resumed: boolean): Promise<TenantDeletionRecord>;
  abstract deleteTenantEpisodes(tenantId: string, limit: number): Promise<number>;
  abstract finishTenantDeletion(tenantId: string, slug: string, record: TenantDeletionRecord): Promise<void>;
}
