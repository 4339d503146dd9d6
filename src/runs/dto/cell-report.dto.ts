import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
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

  @ApiProperty({
    required: false,
    enum: [true],
    description:
      'The agent gave up (it stopped acting, e.g. the model answered turn after turn without a tool call): the episode ends and the cell is finished ' +
      'with the score the episode had (termination "gave_up"), counted like any other; it is not filled again. Refused (409) once the episode has ended; ' +
      'not with `infrastructure_error`.',
  })
  @IsIn([true], { message: 'gave_up must be true, or left out' })
  @IsOptional()
  gave_up?: true;
}
