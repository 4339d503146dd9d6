import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsISO8601, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import { isStoredTimeRange } from '../episode-cursor';
import { EPISODE_STATUSES, TAG_PATTERN, type EpisodeRowStatus } from '../../episodes';

/** Filters shared by the listing, the export and the statistics. All optional; all combine with AND. */
export class EpisodeFiltersDto {
  @ApiProperty({ required: false, maxLength: 64 })
  @MaxLength(64)
  @IsString()
  @IsOptional()
  task_id?: string;

  @ApiProperty({ required: false, enum: EPISODE_STATUSES, enumName: 'EpisodeStatus' })
  @IsIn(EPISODE_STATUSES)
  @IsOptional()
  status?: EpisodeRowStatus;

  @ApiProperty({ required: false, maxLength: 128 })
  @MaxLength(128)
  @IsString()
  @IsOptional()
  agent?: string;

  @ApiProperty({ required: false, maxLength: 128 })
  @MaxLength(128)
  @IsString()
  @IsOptional()
  run_label?: string;

  @ApiProperty({ required: false, description: 'Episodes carrying this tag.' })
  @Matches(TAG_PATTERN, { message: 'tag must be 1-64 letters, digits, "_", "-", "." or ":"' })
  @IsString()
  @IsOptional()
  tag?: string;

  @ApiProperty({ required: false, format: 'date-time', description: 'Created at or after this time (ISO-8601).' })
  @WithinStoredTimes()
  @IsISO8601({ strict: true })
  @IsOptional()
  created_after?: string;

  @ApiProperty({ required: false, format: 'date-time', description: 'Created before this time (ISO-8601).' })
  @WithinStoredTimes()
  @IsISO8601({ strict: true })
  @IsOptional()
  created_before?: string;

  @ApiProperty({ required: false, minimum: 0, maximum: 1, description: 'Score at least this (0 to 1).' })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Type(() => Number)
  @IsOptional()
  min_score?: number;

  @ApiProperty({ required: false, minimum: 0, maximum: 1, description: 'Score at most this (0 to 1).' })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Type(() => Number)
  @IsOptional()
  max_score?: number;

  @ApiProperty({ required: false, description: 'Admin key only: restrict to one tenant (its slug).' })
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'tenant must be a tenant slug' })
  @IsString()
  @IsOptional()
  tenant?: string;
}

/** One episode of an audit route: ids are unique within a tenant, so the admin key may have to name it. */
export class EpisodeRefQueryDto {
  @ApiProperty({ required: false, description: 'Admin key only: the tenant (its slug) whose episode this is, when several tenants use the id.' })
  @Matches(/^[a-z0-9][a-z0-9-]{0,62}$/, { message: 'tenant must be a tenant slug' })
  @IsString()
  @IsOptional()
  tenant?: string;
}

export class ListEpisodesQueryDto extends EpisodeFiltersDto {
  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: 200, default: 50 })
  @Max(200)
  @Min(1)
  @IsNumber({ allowNaN: false, maxDecimalPlaces: 0 })
  @Type(() => Number)
  @IsOptional()
  limit?: number;

  @ApiProperty({ required: false, description: 'The `next_cursor` of the previous page.' })
  @MaxLength(200)
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
  @ApiProperty({ required: false, minimum: 0, maximum: 1, default: 1, description: 'Score that counts as a success.' })
  @Max(1)
  @Min(0)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Type(() => Number)
  @IsOptional()
  threshold?: number;

  @ApiProperty({ required: false, enum: ['agent'], description: 'Also group each task by agent.' })
  @IsIn(['agent'])
  @IsOptional()
  group_by?: 'agent';
}

/** A time the database can hold and compare (years 1970 to 9999), not just any valid ISO-8601 date. */
function WithinStoredTimes(): PropertyDecorator {
  return ValidateBy({
    name: 'withinStoredTimes',
    validator: {
      validate: (value) => typeof value !== 'string' || isStoredTimeRange(new Date(value)),
      defaultMessage: (args) => `${args?.property} must be a time between 1970 and 9999`,
    },
  });
}
