import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { MaxChars } from '../../common/field-rules';
import { ScoreComponentDto } from '../../episodes';

export class BaselineRequestDto {
  // The document lists the task ids this server has (the items' `enum` is filled from the task catalogue).
  @ApiProperty({
    required: false,
    type: 'array',
    items: { type: 'string', maxLength: 64 },
    maxItems: 20,
    description: 'Tasks to run (ids of GET /tasks; repeats run once); omitted or empty, all of them.',
  })
  @ArrayMaxSize(20)
  @MaxChars(64, { each: true })
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
