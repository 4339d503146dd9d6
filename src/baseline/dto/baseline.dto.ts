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
  @ApiProperty({ type: Number, nullable: true, description: 'The score, 0 to 1; null (withheld) for a test-split episode when the caller is an agent key.' })
  score!: number | null;
  steps!: number;
  @ApiProperty({ type: () => [ScoreComponentDto], nullable: true, description: 'Each component of the score; null (withheld) for a test-split episode when the caller is an agent key.' })
  components!: ScoreComponentDto[] | null;
}

/** One family's figures: its canonical instance, and the mean over the first seeds of each split. */
export class BaselineTaskResultDto {
  task_id!: string;
  canonical!: number;
  /** Mean score over the split's first BASELINE_SEEDS_PER_SPLIT seeds. */
  train!: number;
  @ApiProperty({ type: Number, nullable: true, description: "Mean score over the test split's first seeds; null (withheld) when the caller is an agent key." })
  test!: number | null;
}

export class BaselineResponseDto {
  /** Name and version of the built-in policy. */
  policy!: string;
  /** How many seeds of each split it plays per task (the first ones: train 1, 2, 3, 4, 6, …; test 0, 5, 10, …). */
  seeds_per_split!: number;
  results!: BaselineTaskResultDto[];
  /** Every episode it played, canonical first, then train, then test, per task. */
  episodes!: BaselineEpisodeResultDto[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description: "The mean of the tasks' test-split means: the figure to compare agents with; null (withheld) when the caller is an agent key.",
  })
  mean_score!: number | null;
}
