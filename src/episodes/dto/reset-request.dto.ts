import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const MAX_SEED = 2_147_483_647;

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
}
