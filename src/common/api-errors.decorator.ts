import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';
import { reasonPhrase, type ErrorCode } from './errors/error-translator';
import type { FieldProblem } from './errors/domain-errors';

/*
 * The error responses of the OpenAPI document: every status an operation can answer, each with the service's
 * error body and an example of that status (not one example shared by all). Routes declare the statuses their
 * own logic gives (@ApiErrors); the statuses the HTTP layer gives to every route (authentication, Host, rate
 * limits, body parsing, the database) are added to each operation by the document builder, from the same table.
 */

interface ErrorDoc {
  description: string;
  code: ErrorCode;
  message: string;
  details?: FieldProblem[];
}

const ERRORS: Record<number, ErrorDoc> = {
  400: {
    description:
      'The body is not a JSON object: malformed JSON, nested more than 16 levels, a lone UTF-16 surrogate, or a `__proto__` (or `constructor.prototype`) key',
    code: 'MALFORMED_INPUT',
    message: 'the request body is not a valid JSON object',
  },
  401: {
    description:
      'No key where one is required, a wrong or revoked key, a malformed Authorization header, or a key in the URL (?api_key=); ' +
      'answered with `WWW-Authenticate: Bearer realm="supportdesk"`',
    code: 'UNAUTHENTICATED',
    message: 'the API key is not valid',
  },
  403: {
    description: 'The Host header, or a browser Origin, is not one this server answers to (ALLOWED_HOSTS, ALLOWED_ORIGINS)',
    code: 'FORBIDDEN',
    message: 'the Host header "attacker.example" is not one this server answers to (ALLOWED_HOSTS)',
  },
  404: { description: 'No such episode for the caller', code: 'NOT_FOUND', message: 'no episode "0b9c2f4e-5d6a-4f0e-9a51-2c0d3f7e8b11"' },
  408: {
    description: 'The request (headers within HEADERS_TIMEOUT_MS, all of it within REQUEST_TIMEOUT_MS) took too long to arrive; the connection is closed',
    code: 'REQUEST_TIMEOUT',
    message: 'the request took too long to arrive',
  },
  409: {
    description: 'Conflicts with the current state',
    code: 'CONFLICT',
    message: 'episode "0b9c2f4e-5d6a-4f0e-9a51-2c0d3f7e8b11" is resolved; start a new one with POST /reset',
  },
  413: {
    description: 'The body is larger than BODY_LIMIT_BYTES',
    code: 'PAYLOAD_TOO_LARGE',
    message: 'the request body is larger than this server accepts (BODY_LIMIT_BYTES)',
  },
  414: {
    description: 'A path segment of the URL (an id) is longer than 100 characters; no id is that long',
    code: 'URI_TOO_LONG',
    message: 'a path segment of the URL is longer than 100 characters; no id is that long',
  },
  415: {
    description: 'The body is not UTF-8 JSON (every body is application/json, or a +json type)',
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'the request body must be JSON (content-type: application/json), got text/plain',
  },
  422: {
    description: 'Validation failed; `details` names each bad field (a missing one as "<field> is required"); nothing was changed',
    code: 'VALIDATION_FAILED',
    message: 'action.ticket_id is required',
    details: [{ field: 'action.ticket_id', message: 'action.ticket_id is required' }],
  },
  429: {
    description: 'Over a rate limit; `Retry-After` says when to come back',
    code: 'RATE_LIMITED',
    message: "this tenant's rate limit of 60000 requests a minute (RATE_LIMIT_PER_MINUTE) is used up; retry in 12 s",
  },
  431: {
    description: 'The request line and headers together are larger than the server reads (16 KB); the connection is closed',
    code: 'HEADERS_TOO_LARGE',
    message: 'the request headers are too large',
  },
  503: {
    description: 'The database is busy, or the server is shutting down; nothing was changed, retry after `Retry-After`',
    code: 'UNAVAILABLE',
    message: 'the database is busy; retry shortly',
  },
};

/** The statuses this table documents. */
export const DOCUMENTED_ERROR_STATUSES = Object.keys(ERRORS).map(Number);

function example(status: number, message?: string, field?: string) {
  const doc = ERRORS[status];
  const details = field && message ? [{ field, message }] : doc.details;
  // Worded as the service words a failed validation: "<field>: <problem>", unless the problem starts with the field.
  const text = field && message && !message.startsWith(`${field} `) ? `${field}: ${message}` : (message ?? doc.message);
  return {
    statusCode: status,
    error: reasonPhrase(status),
    code: doc.code,
    message: text,
    ...(details ? { details } : {}),
    request_id: '6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f',
  };
}

/**
 * An OpenAPI response object for an error status: the error body, with an example of that status (its message,
 * and for a 422 the field it names, when the route's own example is given).
 */
export function errorResponseObject(status: number, description?: string, exampleMessage?: string, exampleField?: string) {
  const doc = ERRORS[status];
  if (!doc) throw new Error(`no documentation for error status ${status}`);
  return {
    description: description ?? doc.description,
    content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) }, example: example(status, exampleMessage, exampleField) } },
  };
}

/**
 * A status this route answers for its own reasons, optionally with a description of those reasons and an example
 * message (and, for a 422, the field the example names).
 */
export type RouteError = number | { status: number; description?: string; example?: string; field?: string };

/** A 422 of a route whose input is a query string, with an example naming one of its parameters. */
export function queryValidation(field: string, example: string): RouteError {
  return { status: 422, description: 'A query parameter breaks its rule; `details` names each; nothing was changed', example, field };
}

/** Documents the error responses a route's own logic gives (the HTTP layer's are added to every route). */
export function ApiErrors(...errors: RouteError[]): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorBodyDto),
    ...errors.map((error) => {
      const { status, description, example: message, field } = typeof error === 'number' ? { status: error } : error;
      const response = errorResponseObject(status, description, message, field);
      return ApiResponse({ status, description: response.description, content: response.content });
    }),
  );
}
