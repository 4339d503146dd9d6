import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MaxChars, MinChars } from '../../common/field-rules';

/** The most tokens one report may add (far above any episode; keeps sums exact in a double). */
const MAX_REPORTED_TOKENS = 1_000_000_000;

export class CellReportRequestDto {
  @ApiProperty({ required: false, type: 'integer', minimum: 0, maximum: MAX_REPORTED_TOKENS, description: 'Prompt tokens the model used in this episode; added to the cell\'s.' })
  @Max(MAX_REPORTED_TOKENS)
  @Min(0)
  @IsInt()
  @IsOptional()
  input_tokens?: number;

  @ApiProperty({ required: false, type: 'integer', minimum: 0, maximum: MAX_REPORTED_TOKENS, description: 'Completion tokens the model used in this episode; added to the cell\'s.' })
  @Max(MAX_REPORTED_TOKENS)
  @Min(0)
  @IsInt()
  @IsOptional()
  output_tokens?: number;

  @ApiProperty({
    required: false,
    minLength: 1,
    maxLength: 500,
    example: 'model endpoint: 503 after 5 retries',
    description: 'The attempt failed on infrastructure (the model endpoint, the agent\'s host): the episode ends and the cell may be filled again. Refused (409) once the episode has ended.',
  })
  @MinChars(1)
  @MaxChars(500)
  @IsString()
  @IsOptional()
  infrastructure_error?: string;
}
