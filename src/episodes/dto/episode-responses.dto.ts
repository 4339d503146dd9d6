import { ApiProperty } from '@nestjs/swagger';
import type { Action } from '../../engine/actions';
import { COMPONENT_WEIGHTS, type ComponentName } from '../../engine/grader';
import type { EpisodeRowStatus } from '../episode.repository';
import { actionPropertyOptions } from './action-ref';
import { ActiveTicketDto, ObservationDto } from './observation.dto';
import { ReplyDetailGradeDto } from './reply-detail-grade.dto';

export const EPISODE_STATUSES: EpisodeRowStatus[] = ['active', 'resolved', 'out_of_steps', 'expired'];
const COMPONENT_NAMES = Object.keys(COMPONENT_WEIGHTS) as ComponentName[];

export class ResetInfoDto {
  task_id!: string;
  /** Content hash of the task version this episode runs. */
  task_version!: string;
  /** The grader that scores this episode, fixed for its whole life (see the README's Reward section). */
  grader_version!: number;
  seed!: number;
  max_steps!: number;
  score!: number;
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  @ApiProperty({ type: String, nullable: true })
  agent!: string | null;
  @ApiProperty({ type: String, nullable: true })
  run_label!: string | null;
  tags!: string[];
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
  /** Score after this step, 0 to 1. */
  score!: number;
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
  /** Change in score caused by this step (negative when a correct choice is undone). */
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
  reward!: number;
  score_after!: number;
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
  seed!: number;
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  done!: boolean;
  step_count!: number;
  max_steps!: number;
  score!: number;
  components!: ScoreComponentDto[];
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
  @ApiProperty({ enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  status!: EpisodeRowStatus;
  score!: number;
  components!: ScoreComponentDto[];
  /** Each detail the customer must be told: the sentence that covered it, or why it is not covered. */
  @ApiProperty({ type: () => [ReplyDetailGradeDto] })
  reply_details!: ReplyDetailGradeDto[];
}
