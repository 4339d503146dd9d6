import { ApiProperty } from '@nestjs/swagger';
import type { Action } from '../../engine/actions';
import { COMPONENT_WEIGHTS, type ComponentName } from '../../engine/grader';
import { FEEDBACK_MODES, type EpisodeRowStatus, type FeedbackMode } from '../episode.repository';
import { PENALTY_KINDS, type PenaltyKind } from '../../engine/grader';
import { SPLITS, SPLIT_SOURCES, type Split, type SplitSource } from '../../families';
import { VARIANTS, type Variant } from './reset-request.dto';
import { actionPropertyOptions } from './action-ref';
import { ActiveTicketDto, ObservationDto } from './observation.dto';
import { ReplyDetailGradeDto } from './reply-detail-grade.dto';

export const EPISODE_STATUSES: EpisodeRowStatus[] = ['active', 'resolved', 'out_of_steps', 'expired'];
const COMPONENT_NAMES = Object.keys(COMPONENT_WEIGHTS) as ComponentName[];

export const SPLIT_SOURCE_DESCRIPTION =
  'What the generator was fed, for a generated instance: "public", the seed itself (anyone can draw the instance again from the published generators), ' +
  'or "private", the private test split (POST /reset split "private"): a seed derived from this test seed under a secret only the server holds. Null for the canonical instance.';
export const SPLIT_KEY_ID_DESCRIPTION =
  'For a private-split episode, the id of the private-split key its instance was drawn with ("ps_" and 12 hex digits; never the key itself); null otherwise.';

/** A cell of an evaluation run: the family (task), the seed and the trial (0-based). */
export class RunCellRefDto {
  run_id!: string;
  task_id!: string;
  seed!: number;
  trial!: number;
}

export class ResetInfoDto {
  task_id!: string;
  /** Content hash of the task version this episode runs. */
  task_version!: string;
  /** The grader that scores this episode, fixed for its whole life (docs/grading.md, Grader versions). */
  grader_version!: number;
  @ApiProperty({ enum: FEEDBACK_MODES, enumName: 'FeedbackMode', description: 'What the agent is told while the episode runs (POST /reset\'s `feedback`).' })
  feedback!: FeedbackMode;
  @ApiProperty({ enum: VARIANTS, enumName: 'TaskVariant', description: 'A family\'s drawn instance ("generated") or the task file\'s fixed one ("canonical").' })
  variant!: Variant;
  @ApiProperty({ type: String, enum: SPLITS, nullable: true, description: 'The split of the seed, for a generated instance; null for the canonical one.' })
  split!: Split | null;
  @ApiProperty({ type: String, enum: SPLIT_SOURCES, nullable: true, description: SPLIT_SOURCE_DESCRIPTION })
  split_source!: SplitSource | null;
  @ApiProperty({ type: String, nullable: true, description: SPLIT_KEY_ID_DESCRIPTION })
  split_key_id!: string | null;
  seed!: number;
  max_steps!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Score so far, 0 to 1; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  score!: number | null;
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  @ApiProperty({ type: String, nullable: true })
  agent!: string | null;
  @ApiProperty({ type: String, nullable: true })
  run_label!: string | null;
  tags!: string[];
  @ApiProperty({ type: () => RunCellRefDto, nullable: true, description: 'The evaluation-run cell this episode fills (POST /reset with `run_id`); null outside runs.' })
  run!: RunCellRefDto | null;
}

export class ResetResponseDto {
  episode_id!: string;
  // Explicit: under ts-jest the Swagger plugin resolves this type to Object.
  @ApiProperty({ type: () => ObservationDto })
  observation!: ObservationDto;
  /** Always 0 at reset. */
  reward!: number;
  done!: boolean;
  info!: ResetInfoDto;
}

export class StepInfoDto {
  task_id!: string;
  @ApiProperty({ type: Number, nullable: true, description: 'Score after this step, 0 to 1; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  score!: number | null;
  step_count!: number;
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  @ApiProperty({ type: String, nullable: true, description: 'Why the action could not apply, or null.' })
  last_action_error!: string | null;
}

export class StepResponseDto {
  episode_id!: string;
  @ApiProperty({ type: () => ObservationDto })
  observation!: ObservationDto;
  /**
   * Change in score caused by this step: negative when it incurs a penalty. With feedback "final", 0 until the step
   * that ends the episode, which carries the whole score. For a test-split episode seen by an agent key that step's
   * reward is 0 too: the score is withheld (`info.score` is null once `done`).
   */
  reward!: number;
  done!: boolean;
  info!: StepInfoDto;
}

export class ScoreComponentDto {
  @ApiProperty({ enum: COMPONENT_NAMES, enumName: 'ScoreComponentName' })
  name!: ComponentName;
  weight!: number;
  earned!: number;
  /** Why this much was earned; never reveals the expected answer. */
  why!: string;
}

export class ActionLogEntryDto {
  step!: number;
  @ApiProperty(actionPropertyOptions('The action as applied.'))
  action!: Action;
  outcome!: string;
  @ApiProperty({ type: String, nullable: true })
  error!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The step\'s reward as dense feedback gives it (stored for every episode); null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  reward!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Score after the step; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  score_after!: number | null;
  /** ISO-8601 time the step was stored. */
  created_at!: string;
  /** Link of the episode's hash chain: sha256 of the previous row's hash and this row. */
  hash!: string;
}

export class EpisodeStateDto {
  episode_id!: string;
  task_id!: string;
  task_version!: string;
  grader_version!: number;
  @ApiProperty({ enum: FEEDBACK_MODES, enumName: 'FeedbackMode' })
  feedback!: FeedbackMode;
  @ApiProperty({ enum: VARIANTS, enumName: 'TaskVariant', description: 'A family\'s drawn instance ("generated") or the task file\'s fixed one ("canonical").' })
  variant!: Variant;
  @ApiProperty({ type: String, enum: SPLITS, nullable: true, description: 'The split of the seed, for a generated instance; null for the canonical one.' })
  split!: Split | null;
  @ApiProperty({ type: String, enum: SPLIT_SOURCES, nullable: true, description: SPLIT_SOURCE_DESCRIPTION })
  split_source!: SplitSource | null;
  @ApiProperty({ type: String, nullable: true, description: SPLIT_KEY_ID_DESCRIPTION })
  split_key_id!: string | null;
  seed!: number;
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  done!: boolean;
  step_count!: number;
  max_steps!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Score so far, 0 to 1; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  score!: number | null;
  @ApiProperty({ type: () => [ScoreComponentDto], nullable: true, description: 'Each component of the score; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  components!: ScoreComponentDto[] | null;
  @ApiProperty({ type: () => ActiveTicketDto, nullable: true })
  active_ticket!: ActiveTicketDto | null;
  /** Every step of the episode, in order. */
  actions!: ActionLogEntryDto[];
  created_at!: string;
  updated_at!: string;
}

export class GradeResponseDto {
  episode_id!: string;
  task_id!: string;
  /** The grader that scored it: the version the episode started with. */
  grader_version!: number;
  @ApiProperty({ enum: FEEDBACK_MODES, enumName: 'FeedbackMode' })
  feedback!: FeedbackMode;
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  @ApiProperty({ type: Number, nullable: true, description: 'The score, 0 to 1; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  score!: number | null;
  @ApiProperty({ type: () => [ScoreComponentDto], nullable: true, description: 'Each component of the score; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  components!: ScoreComponentDto[] | null;
  @ApiProperty({
    type: () => [ReplyDetailGradeDto],
    nullable: true,
    description: 'Each detail the customer must be told: the sentence that covered it, or why it is not covered; null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.',
  })
  reply_details!: ReplyDetailGradeDto[] | null;
  @ApiProperty({ type: () => [PenaltyDto], nullable: true, description: 'What was taken off the score, and why (grader version 2); null while an episode started with feedback "final" runs, and always (withheld) for a test-split episode seen by an agent key.' })
  penalties!: PenaltyDto[] | null;
}

/** Something taken off the score (grader version 2; docs/grading.md, Penalties). */
export class PenaltyDto {
  /** What was done: a forbidden statement's id (asks_for_password), or collateral:<ticket>:<act>. */
  id!: string;
  @ApiProperty({ enum: PENALTY_KINDS, enumName: 'PenaltyKind' })
  kind!: PenaltyKind;
  /** Points taken off, 0 to 1. */
  penalty!: number;
  /** Why, in words that name the act. */
  reason!: string;
  /** The step that incurred it. */
  step!: number;
  /** The ticket it was done on. */
  ticket_id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The sentence of the reply that was penalised, for a statement.' })
  sentence!: string | null;
}
