import { ApiProperty } from '@nestjs/swagger';

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
  @ApiProperty({ example: 'action.type must be one of: open_ticket, search_policy, …' })
  message!: string;
  @ApiProperty({ type: () => [ErrorDetailDto], required: false })
  details?: ErrorDetailDto[];
}
