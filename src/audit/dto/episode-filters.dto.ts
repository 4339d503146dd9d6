import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { DATE_TIME_PATTERN, IsDateTime, MaxChars, QueryNumber } from '../../common/field-rules';
import { SPLITS, type Split } from '../../families';
import { EPISODE_STATUSES, FEEDBACK_MODES, RUN_ID_PATTERN, TAG_PATTERN, VARIANTS, type EpisodeRowStatus, type FeedbackMode, type Variant } from '../../episodes';

export const TENANT_SLUG = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** A query string holds text: the filter is "true" or "false", as written. */
export const REPEATED_TEST_PLAY_VALUES = ['true', 'false'] as const;

/** What the document says of a date-time filter: RFC 3339 with a zone, in the exact form the server reads. */
const dateTime = (description: string) =>
  ({
    required: false,
    type: 'string',
    format: 'date-time',
    pattern: DATE_TIME_PATTERN.source,
    example: '2026-01-31T00:00:00Z',
    description: `${description} RFC 3339 with seconds and a time zone (Z or ±hh:mm); a date alone or a time without a zone is refused (422).`,
  }) as const;

/** Filters shared by the listing, the export and the statistics. All optional; all combine with AND. */
export class EpisodeFiltersDto {
  @ApiProperty({ required: false, maxLength: 64 })
  @MaxChars(64)
  @IsString()
  @IsOptional()
  task_id?: string;

  @ApiProperty({ required: false, enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  @IsIn(EPISODE_STATUSES)
  @IsOptional()
  status?: EpisodeRowStatus;

  @ApiProperty({ required: false, maxLength: 128 })
  @MaxChars(128)
  @IsString()
  @IsOptional()
  agent?: string;

  @ApiProperty({ required: false, maxLength: 128 })
  @MaxChars(128)
  @IsString()
  @IsOptional()
  run_label?: string;

  @ApiProperty({ required: false, enum: VARIANTS, enumName: 'TaskVariant', description: 'Drawn instances ("generated") or the task file\'s fixed one ("canonical").' })
  @IsIn(VARIANTS, { message: `variant must be one of: ${VARIANTS.join(', ')}` })
  @IsOptional()
  variant?: Variant;

  @ApiProperty({
    required: false,
    enum: SPLITS,
    description: 'Drawn instances of this split of seeds (a canonical instance is in none, so either value leaves it out); private-split plays are test-split plays.',
  })
  @IsIn(SPLITS, { message: `split must be one of: ${SPLITS.join(', ')}` })
  @IsOptional()
  split?: Split;

  @ApiProperty({ required: false, enum: FEEDBACK_MODES, enumName: 'FeedbackMode', description: 'What the agent was told while the episode ran.' })
  @IsIn(FEEDBACK_MODES, { message: `feedback must be one of: ${FEEDBACK_MODES.join(', ')}` })
  @IsOptional()
  feedback?: FeedbackMode;

  @ApiProperty({ required: false, pattern: RUN_ID_PATTERN.source, description: 'The episodes that filled cells of this evaluation run (GET /runs), every attempt included.' })
  @Matches(RUN_ID_PATTERN, { message: 'run_id must be 1-64 letters, digits, "_" or "-"' })
  @IsString()
  @IsOptional()
  run_id?: string;

  @ApiProperty({ required: false, pattern: TAG_PATTERN.source, description: 'Episodes carrying this tag.' })
  @Matches(TAG_PATTERN, { message: 'tag must be 1-64 letters, digits, "_", "-", "." or ":"' })
  @IsString()
  @IsOptional()
  tag?: string;

  @ApiProperty(dateTime('Created at or after this time.'))
  @IsDateTime()
  @IsOptional()
  created_after?: string;

  @ApiProperty(dateTime('Created before this time.'))
  @IsDateTime()
  @IsOptional()
  created_before?: string;

  @ApiProperty({ required: false, type: 'number', minimum: 0, maximum: 1, description: 'Score at least this (0 to 1).' })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @QueryNumber()
  @IsOptional()
  min_score?: number;

  @ApiProperty({ required: false, type: 'number', minimum: 0, maximum: 1, description: 'Score at most this (0 to 1).' })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @QueryNumber()
  @IsOptional()
  max_score?: number;

  @ApiProperty({
    required: false,
    enum: REPEATED_TEST_PLAY_VALUES,
    description:
      'true: only repeated test plays, the test-split episodes whose task, seed, agent and run label the tenant had already played ' +
      '(a run plays each once); false: every other episode (docs/audit.md, Repeated test plays).',
  })
  @IsIn(REPEATED_TEST_PLAY_VALUES, { message: `repeated_test_play must be one of: ${REPEATED_TEST_PLAY_VALUES.join(', ')}` })
  @IsOptional()
  repeated_test_play?: (typeof REPEATED_TEST_PLAY_VALUES)[number];

  @ApiProperty({
    required: false,
    pattern: TENANT_SLUG.source,
    description: 'Admin key only (another key gets 403): restrict to one tenant (its slug; 404 if there is none).',
  })
  @Matches(TENANT_SLUG, { message: 'tenant must be a tenant slug' })
  @IsString()
  @IsOptional()
  tenant?: string;
}

/** One episode of an audit route: ids are unique within a tenant, so the admin key may have to name it. */
export class EpisodeRefQueryDto {
  @ApiProperty({
    required: false,
    pattern: TENANT_SLUG.source,
    description: 'Admin key only (another key gets 403): the tenant (its slug) whose episode this is, when several tenants use the id.',
  })
  @Matches(TENANT_SLUG, { message: 'tenant must be a tenant slug' })
  @IsString()
  @IsOptional()
  tenant?: string;
}

export class ListEpisodesQueryDto extends EpisodeFiltersDto {
  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @Max(200)
  @Min(1)
  @IsInt()
  @QueryNumber()
  @IsOptional()
  limit?: number;

  @ApiProperty({
    required: false,
    maxLength: 200,
    description: 'The `next_cursor` of the previous page (opaque; a value this server did not issue is refused with 422).',
  })
  @MaxChars(200)
  @IsString()
  @IsOptional()
  cursor?: string;
}

export class ExportQueryDto extends EpisodeFiltersDto {
  @ApiProperty({ required: false, enum: ['jsonl'], default: 'jsonl' })
  @IsIn(['jsonl'])
  @IsOptional()
  format?: 'jsonl';
}

export class StatsQueryDto extends EpisodeFiltersDto {
  @ApiProperty({ required: false, type: 'number', minimum: 0, maximum: 1, default: 1, description: 'Score that counts as a success.' })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @QueryNumber()
  @IsOptional()
  threshold?: number;

  @ApiProperty({ required: false, enum: ['agent'], description: 'Also group each task by agent.' })
  @IsIn(['agent'])
  @IsOptional()
  group_by?: 'agent';
}
