import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { MaxChars } from '../../common/field-rules';
import { SPLITS, type Split } from '../../families';
import { ScoreComponentDto, VARIANTS, type Variant } from '../../episodes';

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

/** One baseline episode. */
export class BaselineEpisodeResultDto {
  task_id!: string;
  @ApiProperty({ enum: VARIANTS, enumName: 'TaskVariant' })
  variant!: Variant;
  @ApiProperty({ type: String, enum: SPLITS, nullable: true, description: 'The seed\'s split, for a drawn instance; null for the canonical one.' })
  split!: Split | null;
  seed!: number;
  /** The persisted episode; inspect it with GET /state/{episode_id}. */
  episode_id!: string;
  score!: number;
  steps!: number;
  components!: ScoreComponentDto[];
}

/** One family's figures: its canonical instance, and the mean over the first seeds of each split. */
export class BaselineTaskResultDto {
  task_id!: string;
  canonical!: number;
  /** Mean score over the split's first BASELINE_SEEDS_PER_SPLIT seeds. */
  train!: number;
  test!: number;
}

export class BaselineResponseDto {
  /** Name and version of the built-in policy. */
  policy!: string;
  /** How many seeds of each split it plays per task (the first ones: train 1, 2, 3, 4, 6, …; test 0, 5, 10, …). */
  seeds_per_split!: number;
  results!: BaselineTaskResultDto[];
  /** Every episode it played, canonical first, then train, then test, per task. */
  episodes!: BaselineEpisodeResultDto[];
  /** The mean of the tasks' test-split means: the figure to compare agents with. */
  mean_score!: number;
}
