import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CODES, reasonPhrase, type ErrorCode, type TranslatedError } from './errors/error-translator';

export class ErrorDetailDto {
  /** Dotted path of the offending field, e.g. "action.ticket_id". */
  field!: string;
  /** What is wrong with it, e.g. "action.ticket_id is required". */
  message!: string;
}

/**
 * The one error body of the whole service. Each response of the document carries an example of its own status;
 * the schema has none, so no example of one status stands for all.
 */
export class ErrorBodyDto {
  @ApiProperty({ type: 'integer', description: 'The HTTP status of the response, repeated.' })
  statusCode!: number;
  @ApiProperty({ description: 'The standard reason phrase of the status ("Not Found").' })
  error!: string;
  @ApiProperty({ enum: [...ERROR_CODES], enumName: 'ErrorCode', description: 'What went wrong, in a stable machine-readable form.' })
  code!: ErrorCode;
  @ApiProperty({ description: 'What went wrong, for people; for a 422, each bad field with its problem.' })
  message!: string;
  @ApiProperty({ type: () => [ErrorDetailDto], required: false, description: 'With 422: every bad field.' })
  details?: ErrorDetailDto[];
  @ApiProperty({ description: 'The request id (also in the x-request-id response header), to find the request in the server log.' })
  request_id!: string;
}

/** The error body of a translated error, for the request `requestId` (HTTP answers, and each failed item of a batch). */
export function errorBodyOf(translated: TranslatedError, requestId: string): ErrorBodyDto {
  return {
    statusCode: translated.status,
    error: reasonPhrase(translated.status),
    code: translated.code,
    message: translated.message,
    ...(translated.details && translated.details.length > 0 ? { details: translated.details } : {}),
    request_id: requestId,
  };
}
