import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Max, Min } from 'class-validator';
import { MaxChars, MaxDecimalPlaces, MinChars } from '../../common/field-rules';
import { FEEDBACK_MODES, MAX_SEED, type FeedbackMode } from '../../episodes';
import { MAX_RUN_SEEDS, MAX_TRIALS } from '../../common/run-limits';
import { IsFamilies } from './is-families';

/** The splits a run may draw its cells from: the public train or test split, or the task files' canonical instances. */
export const RUN_SPLITS = ['test', 'train', 'canonical'] as const;
export type RunSplit = (typeof RUN_SPLITS)[number];

export class CreateRunRequestDto {
  @ApiProperty({ maxLength: 128, minLength: 1, example: 'gpt-4.1 baseline, test split', description: 'What the run is, for people.' })
  @MinChars(1)
  @MaxChars(128)
  @IsString()
  name!: string;

  @ApiProperty({ maxLength: 128, minLength: 1, example: 'react-agent/1.4', description: 'The agent evaluated: every episode of the run carries it, and the leaderboard ranks by it.' })
  @MinChars(1)
  @MaxChars(128)
  @IsString()
  agent!: string;

  @ApiProperty({ required: false, maxLength: 128, example: 'gpt-4.1-2025-04-14', description: 'The model behind the agent, if any.' })
  @MaxChars(128)
  @IsString()
  @IsOptional()
  model?: string;

  @ApiProperty({
    oneOf: [
      { type: 'string', enum: ['all'] },
      { type: 'array', items: { type: 'string', maxLength: 64 }, minItems: 1, maxItems: 100, uniqueItems: true },
    ],
    example: 'all',
    description: 'The families (task ids of GET /tasks) the run covers, or "all".',
  })
  @IsFamilies()
  families!: string[] | 'all';

  @ApiProperty({ required: false, enum: RUN_SPLITS, enumName: 'RunSplit', description: 'Where the cells\' instances come from: "test" (default), "train", or "canonical" (each task file\'s fixed instance; the seed only orders the inbox).' })
  @IsIn(RUN_SPLITS, { message: `split must be one of: ${RUN_SPLITS.join(', ')}` })
  @IsOptional()
  split?: RunSplit;

  @ApiProperty({
    required: false,
    type: 'array',
    items: { type: 'integer', minimum: 0, maximum: MAX_SEED },
    minItems: 1,
    maxItems: MAX_RUN_SEEDS,
    uniqueItems: true,
    description: 'The seeds, each of the split (a test seed for "test", a train seed for "train"). Give `seeds` or `seed_count`, not both.',
  })
  @Max(MAX_SEED, { each: true })
  @Min(0, { each: true })
  @IsInt({ each: true })
  @ArrayUnique({ message: 'seeds must not repeat a seed' })
  @ArrayMaxSize(MAX_RUN_SEEDS)
  @ArrayMinSize(1)
  @IsOptional()
  seeds?: number[];

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 1,
    maximum: MAX_RUN_SEEDS,
    description: 'The first N seeds of the split (the same seeds for every agent, so runs pair up). Give `seeds` or `seed_count`, not both.',
  })
  @Max(MAX_RUN_SEEDS)
  @Min(1)
  @IsInt()
  @IsOptional()
  seed_count?: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_TRIALS, example: 4, description: 'Trials per (family, seed): k of pass^k.' })
  @Max(MAX_TRIALS)
  @Min(1)
  @IsInt()
  trials!: number;

  @ApiProperty({
    required: false,
    enum: FEEDBACK_MODES,
   
    description: 'The feedback of every episode: "final" (default; the only one a test-split run takes) or "dense" (train and canonical runs).',
  })
  @IsIn(FEEDBACK_MODES, { message: `feedback must be one of: ${FEEDBACK_MODES.join(', ')}` })
  @IsOptional()
  feedback?: FeedbackMode;

  // `x-max-decimal-places` rather than `multipleOf: 0.001`, which validators test in floating point (see ResolveTicketAction.amount).
  @ApiProperty({
    required: false,
    minimum: 0,
    maximum: 1,
    'x-max-decimal-places': 3,
    example: 1,
    description: 'A cell succeeds when its score is at least this (default 1: a full score), a number with at most 3 decimals as written; pass^k counts successes.',
  } as ApiPropertyOptions)
  @Max(1)
  @Min(0)
  @MaxDecimalPlaces(3)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsOptional()
  success_threshold?: number;

  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'Free-form JSON kept with the run (at most 8 KB), e.g. {"commit": "a1b2c3d", "temperature": 0}.' })
  @IsObject()
  @IsOptional()
  metadata?: Record<string, unknown>;
}
