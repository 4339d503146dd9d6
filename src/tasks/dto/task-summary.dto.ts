import { ApiProperty } from '@nestjs/swagger';
import { DIFFICULTIES, type Difficulty } from '../../engine/vocabulary';

export class TaskSummaryDto {
  id!: string;
  @ApiProperty({ enum: DIFFICULTIES, enumName: 'Difficulty' })
  difficulty!: Difficulty;
  title!: string;
  /** What the agent is told at reset. */
  instruction!: string;
  max_steps!: number;
  /** Content hash of the current task file. */
  version!: string;
}

export class TaskListDto {
  tasks!: TaskSummaryDto[];
}
