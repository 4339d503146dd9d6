import { STATUS_CODES } from 'node:http';
import { HttpException } from '@nestjs/common';
import {
  ConflictError,
  ForbiddenError,
  MalformedInputError,
  NotFoundError,
  TooManyError,
  UnauthenticatedError,
  UnavailableError,
  UnsupportedMediaTypeError,
  ValidationFailedError,
  type FieldProblem,
} from './domain-errors';

/** Stable, transport-independent names for what went wrong. */
export const ERROR_CODES = [
  'MALFORMED_INPUT',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'REQUEST_TIMEOUT',
  'PAYLOAD_TOO_LARGE',
  'URI_TOO_LONG',
  'UNSUPPORTED_MEDIA_TYPE',
  'VALIDATION_FAILED',
  'RATE_LIMITED',
  'HEADERS_TOO_LARGE',
  'UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** What any transport needs to answer an error: HTTP renders a body, /ws an error message, /mcp an envelope. */
export interface TranslatedError {
  status: number;
  code: ErrorCode;
  message: string;
  details?: FieldProblem[];
  headers?: Record<string, string>;
  /** A bug, not the client's doing: log it with its stack; the message sent says nothing more. */
  unexpected: boolean;
}

const CODE_OF_STATUS: Record<number, ErrorCode> = {
  400: 'MALFORMED_INPUT',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_FAILED',
  429: 'RATE_LIMITED',
  431: 'HEADERS_TOO_LARGE',
  503: 'UNAVAILABLE',
};

const RETRY_SHORTLY = { 'Retry-After': '1' };
const BEARER_CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="supportdesk"' };

/**
 * The one place that decides how an error is answered, for HTTP, /ws and /mcp alike. Client mistakes keep their
 * 4xx and a useful message; anything unexpected becomes a generic 500 that leaks nothing.
 */
export function translateError(error: unknown): TranslatedError {
  const known = (status: number, message: string, extra: Partial<TranslatedError> = {}): TranslatedError => ({
    status,
    code: CODE_OF_STATUS[status] ?? 'INTERNAL',
    message,
    unexpected: false,
    ...extra,
  });
  if (error instanceof ValidationFailedError) return known(422, error.message, { details: error.details });
  if (error instanceof MalformedInputError) return known(400, error.message);
  if (error instanceof UnsupportedMediaTypeError) return known(415, error.message);
  // The challenge HTTP clients expect with a 401 (RFC 9110 §11.6.1): without it, some (the MCP Inspector) show
  // their own guess about OAuth instead of the server's message.
  if (error instanceof UnauthenticatedError) return known(401, error.message, { headers: BEARER_CHALLENGE });
  if (error instanceof ForbiddenError) return known(403, error.message);
  if (error instanceof NotFoundError) return known(404, error.message);
  if (error instanceof ConflictError) return known(409, error.message);
  if (error instanceof TooManyError) {
    return known(429, error.message, error.retryAfterSeconds === undefined ? {} : { headers: { 'Retry-After': String(error.retryAfterSeconds) } });
  }
  if (error instanceof UnavailableError) return known(503, error.message, { headers: RETRY_SHORTLY });
  if (error instanceof HttpException) return fromHttpException(error, known);
  return fromDatabaseError(error, known) ?? unexpected();
}

/** The code an error status is answered with (INTERNAL for one no rule gives). */
export function errorCodeOf(status: number): ErrorCode {
  return CODE_OF_STATUS[status] ?? 'INTERNAL';
}

/** The standard reason phrase of a status ("Unprocessable Entity"). */
export function reasonPhrase(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}

type Known = (status: number, message: string, extra?: Partial<TranslatedError>) => TranslatedError;

function unexpected(): TranslatedError {
  return { status: 500, code: 'INTERNAL', message: 'internal error; it has been logged', unexpected: true };
}

/**
 * Nest's own exceptions (unknown routes, the rate limiter) keep their status and message; so do the HTTP
 * platform's errors, which Nest wraps before they get here (a body over the limit is worded here).
 */
function fromHttpException(exception: HttpException, known: Known): TranslatedError {
  const status = exception.getStatus();
  if (status >= 500) return unexpected();
  if (status === 413) return known(413, 'the request body is larger than this server accepts (BODY_LIMIT_BYTES)');
  const response = exception.getResponse();
  if (typeof response === 'string') return known(status, response);
  const { message, details } = response as { message?: unknown; details?: FieldProblem[] };
  const text = Array.isArray(message) ? message.join('; ') : typeof message === 'string' ? message : exception.message;
  return known(status, text, details ? { details } : {});
}

/**
 * PostgreSQL's error classes that mean "not now" rather than a bug: a statement cancelled by its timeout (57014), a
 * server shutting down or starting (57P01-57P03), a connection lost (08…), a serialization failure or deadlock
 * (40001, 40P01), too many connections (53300).
 */
const POSTGRES_RETRY_LATER = /^(57014|57P0[1-3]|08...|40001|40P01|53300)$/;

/** Prisma, SQLite and PostgreSQL errors that describe the situation rather than a bug. */
function fromDatabaseError(exception: unknown, known: Known): TranslatedError | null {
  const error = exception as { code?: unknown; message?: unknown };
  if (error?.code === 'P2002' || error?.code === '23505') return known(409, 'a record with that key already exists (is the id taken?)');
  if (error?.code === 'P2025') return known(404, 'the record does not exist');
  if (typeof error?.message === 'string' && /SQLITE_BUSY|database is locked|SocketTimeout|Timed out/i.test(error.message)) {
    return known(503, 'the database is busy; retry shortly', { headers: RETRY_SHORTLY });
  }
  if (typeof error?.code === 'string' && POSTGRES_RETRY_LATER.test(error.code)) {
    return known(503, 'the database is busy or unreachable; retry shortly', { headers: RETRY_SHORTLY });
  }
  return null;
}
