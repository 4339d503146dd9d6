import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES, type ErrorCode } from './errors/error-translator';

export class ErrorDetailDto {
  /** Dotted path of the offending field, e.g. "action.ticket_id". */
  field!: string;
  message!: string;
}

/** The one error body of the whole service. */
export class ErrorBodyDto {
  @ApiProperty({ example: 422 })
  statusCode!: number;
  @ApiProperty({ example: 'Unprocessable Entity' })
  error!: string;
  @ApiProperty({ enum: [...ERROR_CODES], enumName: 'ErrorCode', example: 'VALIDATION_FAILED', description: 'What went wrong, in a stable machine-readable form.' })
  code!: ErrorCode;
  @ApiProperty({ example: 'action.type must be one of: open_ticket, search_policy, …' })
  message!: string;
  @ApiProperty({ type: () => [ErrorDetailDto], required: false })
  details?: ErrorDetailDto[];
  @ApiProperty({ example: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f', description: 'The request id (also in the x-request-id response header), to find the request in the server log.' })
  request_id!: string;
}
