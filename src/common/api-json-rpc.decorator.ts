import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiExtension, ApiExtraModels, ApiHeader, ApiQuery, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorBodyDto } from './error-body.dto';

/*
 * How the OpenAPI document describes a JSON-RPC 2.0 route (MCP over streamable HTTP): the request and response
 * are JSON-RPC envelopes; a malformed JSON-RPC message is answered with HTTP 200 and an error envelope, and errors
 * about the body itself (not JSON at all aside, which is a 200 parse-error envelope) keep their HTTP status with an
 * envelope. Errors of the HTTP layer that are not about the body (401, 403, 429, 503) have the service's error body.
 */

export const JSON_RPC_EXTENSION = 'x-json-rpc';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Components the document builder adds when a route uses the decorators below. */
export const JSON_RPC_SCHEMAS = {
  JsonRpcMessage: {
    type: 'object',
    description:
      'A JSON-RPC 2.0 request (with `id`) or notification (without): MCP (initialize, notifications/initialized, ' +
      'tools/list, tools/call, ping) in a session, OpenEnv’s openenv/session/* without one; an unknown method is ' +
      'answered with a JSON-RPC error.',
    required: ['jsonrpc', 'method'],
    additionalProperties: true,
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      // Any JSON value: what the server takes (an MCP session refuses all but strings and integers with a 400;
      // OpenEnv's dialect answers any other id with id null).
      id: {
        description:
          'A string or an integer; absent for a notification. Within an MCP session any other id is refused (400); ' +
          'OpenEnv’s openenv/session/* dialect answers it with id null.',
      },
      method: { type: 'string' },
      params: { type: 'object', additionalProperties: true },
    },
  },
  JsonRpcError: {
    type: 'object',
    required: ['code', 'message'],
    properties: {
      code: { type: 'integer', description: '-32700 parse error, -32600 invalid request, -32601 method not found, -32602 invalid params, -32000/-32001 server errors' },
      message: { type: 'string' },
      data: { description: 'More about the error, any JSON value.' },
    },
  },
  JsonRpcResponse: {
    type: 'object',
    description: 'A JSON-RPC 2.0 response: `result` on success, `error` otherwise.',
    required: ['jsonrpc', 'id'],
    properties: {
      jsonrpc: { type: 'string', enum: ['2.0'] },
      id: { description: 'The request id, as sent; null when it could not be read.', oneOf: [{ type: 'string', nullable: true }, { type: 'number' }] },
      result: { description: 'The method result, any JSON value.' },
      error: ref('JsonRpcError'),
    },
  },
} as const;

const envelope = (description: string) => ({ description, content: { 'application/json': { schema: ref('JsonRpcResponse') } } });
const oneOrBatch = (name: string) => ({ oneOf: [ref(name), { type: 'array', minItems: 1, items: ref(name) }] });

const SESSION_HEADER = {
  name: 'mcp-session-id',
  description: 'The session, as the initialize response named it (its mcp-session-id header).',
};
const NOT_FOUND_SESSION = 'Unknown or expired session (a JSON-RPC error envelope)';

/** POST of a JSON-RPC route: the messages it takes and every answer it gives. */
export function ApiJsonRpcPost(): MethodDecorator {
  return applyDecorators(
    ApiExtension(JSON_RPC_EXTENSION, true),
    ApiHeader({ ...SESSION_HEADER, required: false, description: `${SESSION_HEADER.description} Absent on initialize, which opens a session.` }),
    ApiHeader({ name: 'x-episode-id', required: false, description: 'On initialize: the episode the session acts on (one of the caller’s).' }),
    ApiQuery({ name: 'episode_id', required: false, type: String, description: 'On initialize: the episode the session acts on, for clients that cannot set headers.' }),
    ApiQuery({
      name: 'tool_schema',
      required: false,
      enum: ['full', 'strict'],
      description:
        'On initialize: the form tools/list serves input schemas in (`strict` for OpenAI strict function calling and ' +
        'Anthropic strict tool use; see GET /tools). OpenEnv sessions (openenv/session/create) take it as a param.',
    }),
    ApiHeader({ name: 'mcp-protocol-version', required: false, description: 'The MCP protocol version the client speaks, after initialize (MCP streamable HTTP).' }),
    ApiBody({ required: true, schema: oneOrBatch('JsonRpcMessage') }),
    ApiResponse({
      status: 200,
      description:
        'The JSON-RPC response (an array for a batch). Also 200: an error envelope for a body that is not JSON at all, ' +
        'for a message that is not JSON-RPC 2.0, before initialize, or for a session limit.',
      content: { 'application/json': { schema: oneOrBatch('JsonRpcResponse') } },
    }),
    ApiResponse({ status: 202, description: 'A notification (or a response) was accepted; no body' }),
    ApiResponse({ status: 400, ...envelope('The body breaks the input checks (nesting, lone surrogates, prototype keys), an invalid JSON-RPC message in a session, a second initialize, an unsupported mcp-protocol-version, or a tool_schema that is neither full nor strict') }),
    ApiResponse({ status: 404, ...envelope(NOT_FOUND_SESSION) }),
    ApiResponse({ status: 406, ...envelope('The Accept header must list both application/json and text/event-stream') }),
    ApiResponse({ status: 413, ...envelope('The body is larger than BODY_LIMIT_BYTES') }),
    ApiResponse({ status: 415, ...envelope('The body is not UTF-8 JSON') }),
  );
}

/** GET of a JSON-RPC route: the server-to-client event stream of a session. */
export function ApiJsonRpcStream(): MethodDecorator {
  return applyDecorators(
    ApiHeader({ ...SESSION_HEADER, required: true }),
    ApiResponse({
      status: 200,
      description: 'The session’s event stream (Server-Sent Events; stays open)',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    }),
    ApiResponse({ status: 400, ...envelope('An unsupported mcp-protocol-version') }),
    ApiResponse({ status: 404, ...envelope(`${NOT_FOUND_SESSION}, or no mcp-session-id header`) }),
    ApiResponse({ status: 406, ...envelope('The Accept header must list text/event-stream') }),
    ApiResponse({ status: 409, ...envelope('The session already has an open stream') }),
  );
}

/** DELETE of a JSON-RPC route: ends a session. */
export function ApiJsonRpcClose(): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorBodyDto),
    ApiHeader({ ...SESSION_HEADER, required: true }),
    ApiResponse({ status: 200, description: 'The session is closed; no body' }),
    ApiResponse({
      status: 400,
      description:
        'An unsupported mcp-protocol-version (a JSON-RPC error envelope); or a body was sent (this route takes none) ' +
        'and is not a JSON object (the service’s error body)',
      content: { 'application/json': { schema: { oneOf: [ref('JsonRpcResponse'), { $ref: getSchemaPath(ErrorBodyDto) }] } } },
    }),
    ApiResponse({ status: 404, ...envelope(`${NOT_FOUND_SESSION}, or no mcp-session-id header`) }),
  );
}
