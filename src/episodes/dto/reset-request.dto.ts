import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsInt, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { MaxChars } from '../../common/field-rules';
import { MAX_TRIALS } from '../../common/run-limits';
import { SPLITS, SPLIT_RULE } from '../../families';
import { FEEDBACK_MODES, type FeedbackMode } from '../episode.repository';
import { EPISODE_ID_MAX_LENGTH, EPISODE_ID_PATTERN, MatchesEpisodeId } from './episode-id';

export const MAX_SEED = 2_147_483_647;
export const VARIANTS = ['generated', 'canonical'] as const;
export type Variant = (typeof VARIANTS)[number];
export const TAG_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
/** A run id as the server makes them ("run_" + 24 hex); the pattern only keeps junk out of lookups and messages. */
export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** What a reset may ask for: a split, or "private", the private test split (test seeds, drawn under the server's secret). */
export const RESET_SPLITS = [...SPLITS, 'private'] as const;
export type ResetSplit = (typeof RESET_SPLITS)[number];

export class ResetRequestDto {
  // The document lists the task ids this server has (its `enum` is filled from the task catalogue).
  @ApiProperty({
    required: false,
    maxLength: 64,
    example: 'billing_duplicate_charge',
    description: 'Task to start (one of GET /tasks); omitted, the easy task (billing_duplicate_charge).',
  })
  @MaxChars(64)
  @IsString()
  @IsOptional()
  task_id?: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 0,
    maximum: MAX_SEED,
    description:
      'Seed of the instance: with variant "generated", it draws the whole instance (customers, amounts, dates, clauses, inbox) and orders the inbox; ' +
      'with "canonical", it only orders the inbox. Omitted, the server draws one (from `split`) and reports it in `info.seed`.',
  })
  @Min(0)
  @Max(MAX_SEED)
  @IsInt()
  @IsOptional()
  seed?: number;

  @ApiProperty({
    required: false,
    pattern: EPISODE_ID_PATTERN.source,
    minLength: 1,
    maxLength: EPISODE_ID_MAX_LENGTH,
    description:
      'Id for the new episode (as OpenEnv clients may send); omitted, the server assigns a UUID. 409 if the caller already has one with this id (each agent key names episodes in its own space).',
  })
  @MatchesEpisodeId()
  @IsString()
  @IsOptional()
  episode_id?: string;

  @ApiProperty({
    required: false,
    enum: VARIANTS,
    enumName: 'TaskVariant',
    description:
      '"generated" (default): an instance the task family draws from the seed, different for every seed. ' +
      '"canonical": the task file\'s fixed instance (the README curl walk-through), in no split.',
  })
  @IsIn(VARIANTS, { message: `variant must be one of: ${VARIANTS.join(', ')}` })
  @IsOptional()
  variant?: Variant;

  @ApiProperty({
    required: false,
    enum: RESET_SPLITS,
    enumName: 'Split',
    description:
      `Which seeds to draw from (${SPLIT_RULE}); omitted, train, or the split of the given seed. Test-split instances always run with feedback "final". Generated instances only. ` +
      '"private": the private test split, on test seeds too, each instance drawn from the seed mixed with a secret only this server holds, so the seed number and the public generators do not tell it ' +
      '(the episode reports split "test" and split_source "private"); refused (422) by a server without a private split (PRIVATE_SPLIT_KEY).',
  })
  @IsIn(RESET_SPLITS, { message: `split must be one of: ${RESET_SPLITS.join(', ')}` })
  @IsOptional()
  split?: ResetSplit;

  @ApiProperty({
    required: false,
    enum: FEEDBACK_MODES,
    enumName: 'FeedbackMode',
    description:
      'What the agent is told while the episode runs. "dense" (for training; the default, except on test-split instances, which refuse it): each step\'s reward and the score so far. ' +
      '"final" (for evaluation): every reward is 0 and the score, components, per-step rewards and explanations are withheld ' +
      '(null) until the episode ends; the step that ends it carries the whole score as its reward.',
  })
  @IsIn(FEEDBACK_MODES, { message: `feedback must be one of: ${FEEDBACK_MODES.join(', ')}` })
  @IsOptional()
  feedback?: FeedbackMode;

  @ApiProperty({ required: false, maxLength: 128, example: 'gpt-4.1-agent/2026-11-29', description: 'Name and version of the agent, for audit queries.' })
  @MaxChars(128)
  @IsString()
  @IsOptional()
  agent?: string;

  @ApiProperty({ required: false, maxLength: 128, example: 'ablation-7', description: 'Label of the run this episode belongs to.' })
  @MaxChars(128)
  @IsString()
  @IsOptional()
  run_label?: string;

  @ApiProperty({
    required: false,
    pattern: RUN_ID_PATTERN.source,
    maxLength: 64,
    example: 'run_5f0c2a9e4b7d1c3a8e6f0b2d',
    description:
      'Fill a cell of this evaluation run (POST /runs; docs/evaluating-agents.md). Alone, the server hands out the run\'s next cell to fill ' +
      '(every family and seed of trial 0 first); with `task_id`, `seed` and `trial`, that cell. The run decides the split, variant, ' +
      'feedback, agent and run label: giving any of them is refused (422). 409 when the cell is finished or being filled, or the run has none left; ' +
      '422 for a cell the run does not have; 404 for a run this key cannot see.',
  })
  @Matches(RUN_ID_PATTERN, { message: 'run_id must be 1-64 letters, digits, "_" or "-"' })
  @IsString()
  @IsOptional()
  run_id?: string;

  @ApiProperty({ required: false, type: 'integer', minimum: 0, maximum: MAX_TRIALS - 1, description: 'The trial of the run cell to fill (0-based), with `run_id`, `task_id` and `seed`.' })
  @Min(0)
  @Max(MAX_TRIALS - 1)
  @IsInt()
  @IsOptional()
  trial?: number;

  @ApiProperty({
    required: false,
    type: 'array',
    items: { type: 'string', pattern: TAG_PATTERN.source, minLength: 1, maxLength: 64 },
    maxItems: 20,
    example: ['eval', 'ppo'],
    description: 'Free-form tags (letters, digits, "_", "-", ".", ":", at most 64 characters each).',
  })
  @Matches(TAG_PATTERN, { each: true, message: 'each tag must be 1-64 letters, digits, "_", "-", "." or ":"' })
  @IsString({ each: true })
  @ArrayMaxSize(20)
  @IsArray()
  @IsOptional()
  tags?: string[];
}
