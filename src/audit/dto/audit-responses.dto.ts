import { ApiProperty } from '@nestjs/swagger';
import { SPLITS, SPLIT_SOURCES, type Split, type SplitSource } from '../../families';
import {
  ActionLogEntryDto,
  EPISODE_STATUSES,
  FEEDBACK_MODES,
  PenaltyDto,
  ReplyDetailGradeDto,
  ScoreComponentDto,
  SPLIT_KEY_ID_DESCRIPTION,
  SPLIT_SOURCE_DESCRIPTION,
  VARIANTS, type EpisodeRowStatus, type FeedbackMode, type Variant } from '../../episodes';

export class EpisodeSummaryDto {
  episode_id!: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The name its agent key gives it, when that differs from episode_id: the key chose an id another agent key of the tenant already held, so the episode is stored under a fresh one. Null: its agent key calls it episode_id.',
  })
  alias!: string | null;
  tenant_id!: string;
  task_id!: string;
  task_version!: string;
  /** The grader that scored it (fixed at reset; 1 for episodes from before graded claims). */
  grader_version!: number;
  @ApiProperty({
    enum: FEEDBACK_MODES,
    enumName: 'FeedbackMode',
    description: 'What the agent was told while the episode ran: "dense" (training) or "final" (evaluation). Audits show the score either way.',
  })
  feedback!: FeedbackMode;
  @ApiProperty({ enum: VARIANTS, enumName: 'TaskVariant' })
  variant!: Variant;
  @ApiProperty({ type: String, enum: SPLITS, nullable: true, description: 'The split of the seed, for a generated instance; null for the canonical one.' })
  split!: Split | null;
  @ApiProperty({ type: String, enum: SPLIT_SOURCES, nullable: true, description: SPLIT_SOURCE_DESCRIPTION })
  split_source!: SplitSource | null;
  @ApiProperty({ type: String, nullable: true, description: SPLIT_KEY_ID_DESCRIPTION })
  split_key_id!: string | null;
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  step_count!: number;
  score!: number;
  seed!: number;
  @ApiProperty({ type: String, nullable: true })
  agent!: string | null;
  @ApiProperty({ type: String, nullable: true })
  run_label!: string | null;
  tags!: string[];
  created_at!: string;
  updated_at!: string;
}

export class EpisodePageDto {
  /** Newest first. */
  items!: EpisodeSummaryDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  next_cursor!: string | null;
}

export class EpisodeDetailDto extends EpisodeSummaryDto {
  components!: ScoreComponentDto[];
  /** What was taken off the score, and why (grader version 2). */
  @ApiProperty({ type: () => [PenaltyDto] })
  penalties!: PenaltyDto[];
}

/** One line of GET /episodes/export: an episode's summary with its whole action log. */
export class ExportedEpisodeDto extends EpisodeSummaryDto {
  actions!: ActionLogEntryDto[];
}

export class EpisodeActionsDto {
  episode_id!: string;
  actions!: ActionLogEntryDto[];
}

export class VerifyReportDto {
  episode_id!: string;
  /** Every stored row hash matches the recomputed chain, and the episode's chain head is the last row. */
  chain_ok!: boolean;
  /** Replaying the logged actions through the engine gives the stored rewards, scores and final state. */
  replay_ok!: boolean;
  /**
   * The tenant ledger holds the episode as it is: created (or enrolled) with its metadata, feedback mode and chain,
   * each logged row recorded once and in order (none deleted, none played again from an earlier copy), an expiry
   * recorded; every entry under a valid MAC. The ledger as a whole (deleted episodes, a cut tail) is checked by
   * GET /ledger/verify.
   */
  ledger_ok!: boolean;
  /**
   * How the chain is computed: "hmac-sha256-v2" (keyed with a key that does not live in the database, and covering
   * the episode's metadata), or "sha256-v1" for an episode chained before that: its rows from then were sealed
   * under the key at the upgrade, and its later rows are keyed.
   */
  chain_scheme!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Id of the chain key (never the key itself).' })
  chain_key_id!: string | null;
  /** The grader the replay used: the one the episode was scored with, not necessarily the current one. */
  grader_version!: number;
  @ApiProperty({ type: String, enum: SPLIT_SOURCES, nullable: true, description: SPLIT_SOURCE_DESCRIPTION })
  split_source!: SplitSource | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: `${SPLIT_KEY_ID_DESCRIPTION} The replay draws the instance with that key: when this server holds it no longer (neither PRIVATE_SPLIT_KEY nor a line of PRIVATE_SPLIT_RETIRED_KEYS_FILE), replay_ok is false and problem says so.`,
  })
  split_key_id!: string | null;
  stored_score!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'The score the replayed actions earn; null when the replay could not run (the instance cannot be drawn: see problem).' })
  replayed_score!: number | null;
  @ApiProperty({ required: false, description: 'Step index of the first row that fails either check.' })
  first_bad_index?: number;
  @ApiProperty({ required: false, description: 'What failed at first_bad_index.' })
  problem?: string;
}

export class ComponentMeansDto {
  opened_target!: number;
  policy_consulted!: number;
  priority!: number;
  routing!: number;
  reply_coverage!: number;
  resolution!: number;
}

export class TaskStatsDto {
  task_id!: string;
  @ApiProperty({ type: String, nullable: true, required: false, description: 'With group_by=agent.' })
  agent?: string | null;
  count!: number;
  /** Share of episodes that finished (resolved or out of steps). */
  completion_rate!: number;
  mean_score!: number;
  median_score!: number;
  /** Share of episodes scoring at least `threshold`. */
  success_rate!: number;
  @ApiProperty({
    type: 'integer',
    description:
      'How many of these episodes are repeated test plays: test-split episodes whose task, seed, agent and run label the tenant ' +
      'had already played (docs/audit.md, Repeated test plays); GET /episodes?repeated_test_play=true lists them.',
  })
  repeated_test_plays!: number;
  component_means!: ComponentMeansDto;
}

/** What retention has removed from the scope so far: the statistics above cover what is left. */
export class PurgedStatsDto {
  @ApiProperty({ type: 'integer' })
  episodes!: number;
  @ApiProperty({ type: 'integer' })
  steps!: number;
  @ApiProperty({ type: 'integer', description: 'Purges (one per sweep batch) that removed them; each is in the admin log as episodes.purged.' })
  purges!: number;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When the latest purge ran (null: never).' })
  last_purge_at!: string | null;
}

export class StatsDto {
  threshold!: number;
  @ApiProperty({ type: String, nullable: true, enum: ['agent'] })
  group_by!: 'agent' | null;
  @ApiProperty({ type: 'integer', description: "Repeated test plays among all the matching episodes: the sum of the tasks' `repeated_test_plays`." })
  repeated_test_plays!: number;
  tasks!: TaskStatsDto[];
  @ApiProperty({ type: () => PurgedStatsDto, description: "Finished episodes the tenant's retention period has purged (filters do not apply)." })
  purged!: PurgedStatsDto;
}

export class RescoredGradeDto {
  grader_version!: number;
  task_version!: string;
  score!: number;
  components!: ScoreComponentDto[];
  @ApiProperty({ type: () => [ReplyDetailGradeDto] })
  reply_details!: ReplyDetailGradeDto[];
  /** Logged steps replayed (the replay stops where the episode ends under the current task version). */
  steps_replayed!: number;
}

export class StoredGradeDto {
  grader_version!: number;
  task_version!: string;
  score!: number;
}

/**
 * An episode's logged actions scored again by the current grader on the task's current version, beside the score
 * it was given. Nothing is stored: the episode keeps its score, its grader version and its record.
 */
export class RescoreReportDto {
  episode_id!: string;
  stored!: StoredGradeDto;
  rescored!: RescoredGradeDto;
}
