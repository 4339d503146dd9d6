import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { QueryNumber } from '../../common/field-rules';
import { ActionLogEntryDto, ObservationDto, PenaltyDto, ReplyDetailGradeDto, ScoreComponentDto } from '../../episodes';

/** No task has more steps than this (the task schema's bound on max_steps): a larger step number is refused outright. */
export const MAX_STEPS_EVER = 100;

/** What a step can change in the environment, as GET /episodes/{id}/steps/{n} lists it. */
export const STATE_CHANGE_FIELDS = ['active_ticket', 'priority', 'team', 'status', 'reply', 'resolution', 'search', 'episode_status'] as const;
export type StateChangeField = (typeof STATE_CHANGE_FIELDS)[number];

export class EpisodeStepParamsDto {
  @ApiProperty({ description: 'The episode (its id in the tenant).' })
  @IsString()
  episode_id!: string;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_STEPS_EVER, description: '0: the episode as reset left it, before any action; n: just after its n-th action.' })
  @Max(MAX_STEPS_EVER)
  @Min(0)
  @IsInt({ message: 'step must be an integer from 0 to the episode\'s step count' })
  @QueryNumber()
  step!: number;
}

export class StateChangeDto {
  @ApiProperty({
    enum: STATE_CHANGE_FIELDS,
    description:
      'What changed: the ticket open in front of the agent, a ticket\'s priority, team or status, a reply sent (after: its text), the resolution (after: its code, with the amount), the last search (its query), or the episode\'s status.',
  })
  field!: StateChangeField;
  @ApiProperty({ type: String, nullable: true, description: 'The ticket changed; null for what belongs to the episode (the open ticket, the search, its status).' })
  ticket_id!: string | null;
  @ApiProperty({ type: String, nullable: true })
  before!: string | null;
  @ApiProperty({ type: String, nullable: true })
  after!: string | null;
}

export class EpisodeStepDto {
  episode_id!: string;
  /** 0: as reset left it; n: just after the n-th action. */
  step!: number;
  /** The steps the episode has: 0 to step_count can be asked for. */
  step_count!: number;
  @ApiProperty({ type: () => ActionLogEntryDto, nullable: true, description: 'The action-log row of this step (the action, its outcome, reward, score after it and hash); null for step 0.' })
  entry!: ActionLogEntryDto | null;
  @ApiProperty({
    type: () => ObservationDto,
    description:
      'What the agent saw after this step, replayed through the engine from the logged actions (observations are not stored): its score as the episode\'s feedback mode showed it (null in "final" mode until the end; an agent key playing a test-split instance was shown none).',
  })
  observation!: ObservationDto;
  @ApiProperty({ type: () => [StateChangeDto], description: 'What this step changed in the environment, in a fixed order: the open ticket, then each ticket\'s fields, replies, the resolution, the search, the episode\'s status. Empty for step 0.' })
  changes!: StateChangeDto[];
  /** The score after this step, as the replay computes it (the verify route says whether it is the logged one). */
  score!: number;
  done!: boolean;
  /** The grade after this step: each component, what it earned and why. */
  components!: ScoreComponentDto[];
  @ApiProperty({ type: () => [PenaltyDto] })
  penalties!: PenaltyDto[];
  @ApiProperty({ type: () => [ReplyDetailGradeDto], description: 'Each detail the reply must state, whether a sentence of a sent reply covered it (that sentence, and its step), or why not.' })
  reply_details!: ReplyDetailGradeDto[];
}
