import { ApiProperty } from '@nestjs/swagger';
import { DIFFICULTIES, type Difficulty } from '../../engine/vocabulary';

export class TaskSummaryDto {
  id!: string;
  @ApiProperty({ enum: DIFFICULTIES, enumName: 'Difficulty' })
  difficulty!: Difficulty;
  title!: string;
  /** What the agent is told at reset, in the canonical instance (a generated instance's own is in its first observation). */
  instruction!: string;
  /** Step budget of the canonical instance (`variant: "canonical"`). */
  max_steps!: number;
  /**
   * The smallest and largest step budget of any instance this task can start: the canonical one and every instance
   * its family draws (the default variant). An episode's own budget is in its observation (`remaining_steps` at reset).
   */
  max_steps_range!: StepBudgetRangeDto;
  /** Content hash of the current task file: the canonical instance (`variant: "canonical"`). */
  version!: string;
  @ApiProperty({ type: () => TaskFamilyDto, nullable: true, description: 'The generator drawing a different instance for every seed (the default variant), or null.' })
  family!: TaskFamilyDto | null;
}

export class StepBudgetRangeDto {
  min!: number;
  max!: number;
}

export class TaskFamilyDto {
  @ApiProperty({ enum: ['billing', 'security', 'logistics'], enumName: 'TaskDomain' })
  domain!: string;
  /** The generator version new episodes are drawn with (a task version such as "g1"). */
  generator_version!: string;
  /** How many distinct instances the generator can draw (a lower bound). */
  distinct_instances!: number;
  /** How seeds are split into train and test; test-split instances run with feedback "final". */
  split_rule!: string;
  /** What varies from seed to seed. */
  varies!: string;
  /** What makes the family hard. */
  hard!: string;
}

export class TaskListDto {
  tasks!: TaskSummaryDto[];
}
