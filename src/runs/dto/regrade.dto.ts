import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { GRADER_VERSIONS, type GraderVersion } from '../../engine/grader-version';
import { GroupSummaryDto } from './run-statistics.dto';

export class RegradeRequestDto {
  @ApiProperty({ required: false, type: 'integer', enum: [...GRADER_VERSIONS], description: 'The grader version to score again under (default: the current one).' })
  @IsIn([...GRADER_VERSIONS], { message: `grader_version must be one of: ${GRADER_VERSIONS.join(', ')}` })
  @IsOptional()
  grader_version?: GraderVersion;
}

export class ComponentChangeDto {
  name!: string;
  before!: number;
  after!: number;
}

export class RegradedEpisodeDto {
  episode_id!: string;
  task_id!: string;
  seed!: number;
  trial!: number;
  score_before!: number;
  score_after!: number;
  success_before!: boolean;
  success_after!: boolean;
  /** Only the components whose points moved. */
  @ApiProperty({ type: () => [ComponentChangeDto] })
  components!: ComponentChangeDto[];
}

export class RegradeDto {
  regrade_id!: string;
  run_id!: string;
  /** The grader the run's episodes were scored by, and the one they were scored again under. */
  grader_version_before!: number;
  grader_version!: number;
  created_at!: string;
  /** Finished cells replayed. */
  episodes!: number;
  /** Of them, those whose score or success changed. */
  changed!: number;
  @ApiProperty({ type: () => GroupSummaryDto, description: 'The run\'s overall results under the new grader (the original stays as it was).' })
  overall!: GroupSummaryDto;
  /** The episodes whose score or success changed, in hand-out order. */
  @ApiProperty({ type: () => [RegradedEpisodeDto] })
  changed_episodes!: RegradedEpisodeDto[];
}
