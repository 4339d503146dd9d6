import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MalformedInputError, UnsupportedMediaTypeError } from '../common/errors/domain-errors';
import { jsonInputProblem } from '../common/json-input';
import { JSON_RPC_ROUTE } from '../common/json-rpc';

/** The body was not JSON at all (on /mcp this is JSON-RPC's "Parse error", not a malformed request). */
export class JsonParseError extends MalformedInputError {
  constructor() {
    super('the request body is not a valid JSON object');
  }
}

const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json$/i;

/**
 * The only body format the API takes. Fastify's own parsers (JSON and plain text) are replaced by this one, so a
 * body in any other format is refused (415) rather than run with defaults the client never asked for; a body
 * over BODY_LIMIT_BYTES is 413 before it is read in full. The body must be UTF-8 JSON whose top level is an object
 * (an array too on JSON-RPC routes, for batches), and passes the checks every transport runs (nesting, lone
 * surrogates, prototype keys). An empty body is an empty object, so `POST /reset` with no body starts the default
 * task.
 */
export function registerJsonBodyParser(instance: FastifyInstance, bodyLimit: number): void {
  instance.removeAllContentTypeParsers();
  instance.addContentTypeParser(JSON_TYPES, { parseAs: 'string', bodyLimit }, (request: FastifyRequest, body: string | Buffer, done) => {
    try {
      const jsonRpc = (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[JSON_RPC_ROUTE] === true;
      done(null, parseJsonBody(request.headers['content-type'], String(body), jsonRpc));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  // Every other format (or none named) is refused before its body is read.
  instance.addContentTypeParser('*', (request: FastifyRequest, _payload, done) => {
    const given = request.headers['content-type'];
    done(new UnsupportedMediaTypeError(`the request body must be JSON (content-type: application/json), got ${given ? given : 'no content-type'}`), undefined);
  });
}

function parseJsonBody(contentType: string | undefined, text: string, arraysAllowed: boolean): unknown {
  const charset = /;\s*charset=["']?([^;"'\s]+)/i.exec(contentType ?? '')?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw new UnsupportedMediaTypeError('the request body must be UTF-8 JSON');
  if (text.length === 0) return {};
  const first = /\S/.exec(text)?.[0];
  if (first !== '{' && !(arraysAllowed && first === '[')) throw new JsonParseError();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new JsonParseError();
  }
  const problem = jsonInputProblem(value, 'the request body');
  if (problem) throw new MalformedInputError(problem);
  return value;
}
