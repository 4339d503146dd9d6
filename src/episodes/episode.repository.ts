import type { GradeBreakdown } from '../engine/grader';
import type { EpisodeState, HistoryEntry } from '../engine/state';

export interface EpisodeRecord {
  id: string;
  tenantId: string;
  taskId: string;
  taskVersion: string;
  seed: number;
  version: number;
  agent: string | null;
  runLabel: string | null;
  tags: string[];
  state: EpisodeState;
  chainHead: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewEpisode {
  id: string;
  taskId: string;
  taskVersion: string;
  seed: number;
  agent: string | null;
  runLabel: string | null;
  tags: string[];
  state: EpisodeState;
  grade: GradeBreakdown;
}

/** What one step changes: the new state, its grade, and the log entry that explains it. */
export interface StepWrite {
  state: EpisodeState;
  grade: GradeBreakdown;
  entry: HistoryEntry;
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
  abstract create(tenantId: string, episode: NewEpisode): Promise<EpisodeRecord>;

  abstract find(tenantId: string, episodeId: string): Promise<EpisodeRecord | null>;

  /**
   * Reads the episode, lets `decide` compute the step from it, and stores the result (the episode row and a
   * hash-chained action-log row, in one transaction), with nothing else touching the database in between.
   * `decide` must be synchronous and may throw to abort. Throws NotFoundError when the tenant has no such episode.
   */
  abstract applyStep(
    tenantId: string,
    episodeId: string,
    decide: (episode: EpisodeRecord) => StepWrite,
  ): Promise<EpisodeRecord>;

  abstract listActions(tenantId: string, episodeId: string): Promise<ActionLogRecord[]>;
}
