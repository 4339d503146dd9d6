import { STATUS_CODES } from 'node:http';
import { ArgumentsHost, Catch, HttpException, HttpStatus, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { ConflictError, InvalidFieldError, NotFoundError, TooManyError, UnavailableError } from './domain-errors';
import type { ErrorBodyDto, ErrorDetailDto } from './error-body.dto';

interface Mapped {
  status: number;
  message: string;
  details?: ErrorDetailDto[];
  headers?: Record<string, string>;
}

/**
 * Every error leaves the service in one body shape. Client mistakes get their 4xx with a useful message;
 * anything unexpected is logged with its stack and answered with a generic 500 that leaks nothing.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    const mapped = this.map(exception);
    if (response.headersSent) {
      response.end();
      return;
    }
    const body: ErrorBodyDto = {
      statusCode: mapped.status,
      error: STATUS_CODES[mapped.status] ?? 'Error',
      message: mapped.message,
      ...(mapped.details && mapped.details.length > 0 ? { details: mapped.details } : {}),
    };
    for (const [name, value] of Object.entries(mapped.headers ?? {})) response.setHeader(name, value);
    response.status(mapped.status).json(body);
  }

  private map(exception: unknown): Mapped {
    if (exception instanceof HttpException) return fromHttpException(exception);
    if (exception instanceof NotFoundError) return { status: HttpStatus.NOT_FOUND, message: exception.message };
    if (exception instanceof ConflictError) return { status: HttpStatus.CONFLICT, message: exception.message };
    if (exception instanceof TooManyError) return { status: HttpStatus.TOO_MANY_REQUESTS, message: exception.message };
    if (exception instanceof UnavailableError) {
      return { status: HttpStatus.SERVICE_UNAVAILABLE, message: exception.message, headers: { 'Retry-After': '1' } };
    }
    if (exception instanceof InvalidFieldError) {
      return {
        status: HttpStatus.UNPROCESSABLE_ENTITY,
        message: exception.message,
        details: [{ field: exception.field, message: exception.message }],
      };
    }
    const bodyError = fromBodyParserError(exception);
    if (bodyError) return bodyError;
    const databaseError = fromDatabaseError(exception);
    if (databaseError) return databaseError;
    this.logger.error('unhandled error', exception instanceof Error ? exception.stack : String(exception));
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: 'internal error; it has been logged' };
  }
}

function fromHttpException(exception: HttpException): Mapped {
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (typeof response === 'string') return { status, message: response };
  const { message, details } = response as { message?: unknown; details?: ErrorDetailDto[] };
  const text = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : exception.message;
  return { status, message: text, details };
}

/** express.json() signals its failures with `type` and `status` on the error. */
function fromBodyParserError(exception: unknown): Mapped | null {
  const error = exception as { type?: string; status?: number; limit?: number };
  switch (error?.type) {
    case 'entity.parse.failed':
      return { status: HttpStatus.BAD_REQUEST, message: 'the request body is not a valid JSON object' };
    case 'entity.too.large':
      return { status: HttpStatus.PAYLOAD_TOO_LARGE, message: `the request body is larger than ${error.limit} bytes` };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { status: HttpStatus.UNSUPPORTED_MEDIA_TYPE, message: 'the request body must be UTF-8 JSON' };
    case 'request.aborted':
      return { status: HttpStatus.BAD_REQUEST, message: 'the request was aborted' };
    default:
      return null;
  }
}

/** Prisma and SQLite errors that describe the situation rather than a bug. */
function fromDatabaseError(exception: unknown): Mapped | null {
  const error = exception as { code?: string; message?: string };
  if (error?.code === 'P2002') return { status: HttpStatus.CONFLICT, message: 'a record with that key already exists (is the id taken?)' };
  if (error?.code === 'P2025') return { status: HttpStatus.NOT_FOUND, message: 'the record does not exist' };
  if (typeof error?.message === 'string' && /SQLITE_BUSY|database is locked|SocketTimeout|Timed out/i.test(error.message)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      message: 'the database is busy; retry shortly',
      headers: { 'Retry-After': '1' },
    };
  }
  return null;
}
