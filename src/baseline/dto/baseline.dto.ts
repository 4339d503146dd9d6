import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { ScoreComponentDto } from '../../episodes';

export class BaselineRequestDto {
  @ApiProperty({ required: false, type: [String], maxItems: 20, description: 'Tasks to run; omitted, all of them.' })
  @ArrayMaxSize(20)
  @MaxLength(64, { each: true })
  @IsArray()
  @IsString({ each: true })
  @IsOptional()
  task_ids?: string[];
}

export class BaselineTaskResultDto {
  task_id!: string;
  /** The persisted episode the baseline ran; inspect it with GET /state/{episode_id}. */
  episode_id!: string;
  score!: number;
  steps!: number;
  components!: ScoreComponentDto[];
}

export class BaselineResponseDto {
  /** Name and version of the built-in policy. */
  policy!: string;
  seed!: number;
  results!: BaselineTaskResultDto[];
  mean_score!: number;
}
