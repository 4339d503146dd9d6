import { ApiProperty } from '@nestjs/swagger';
import { EPISODE_ID_PATTERN, MatchesEpisodeId } from './episode-id';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

export const MAX_SEED = 2_147_483_647;
export const TAG_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

export class ResetRequestDto {
  @ApiProperty({
    required: false,
    maxLength: 64,
    example: 'billing_duplicate_charge',
    description: 'Task to start; omitted, the easy task (billing_duplicate_charge).',
  })
  @MaxLength(64)
  @IsString()
  @IsOptional()
  task_id?: string;

  @ApiProperty({
    required: false,
    type: 'integer',
    minimum: 0,
    maximum: MAX_SEED,
    description: 'Seed for the inbox order; omitted, the server draws one and reports it in `info.seed`.',
  })
  @Min(0)
  @Max(MAX_SEED)
  @IsInt()
  @IsOptional()
  seed?: number;

  @ApiProperty({
    required: false,
    pattern: EPISODE_ID_PATTERN.source,
    description: 'Id for the new episode (as OpenEnv clients may send); omitted, the server assigns a UUID. 409 if this tenant already has one with this id.',
  })
  @MatchesEpisodeId()
  @IsString()
  @IsOptional()
  episode_id?: string;

  @ApiProperty({ required: false, maxLength: 128, example: 'gpt-4.1-agent/2026-11-29', description: 'Name and version of the agent, for audit queries.' })
  @MaxLength(128)
  @IsString()
  @IsOptional()
  agent?: string;

  @ApiProperty({ required: false, maxLength: 128, example: 'ablation-7', description: 'Label of the run this episode belongs to.' })
  @MaxLength(128)
  @IsString()
  @IsOptional()
  run_label?: string;

  @ApiProperty({
    required: false,
    type: [String],
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
