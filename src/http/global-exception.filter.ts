import { Catch, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { translateError, type TranslatedError } from '../common/errors/error-translator';
import { errorBodyOf } from '../common/error-body.dto';
import { JSON_RPC, JSON_RPC_ROUTE, rpcError } from '../common/json-rpc';
import { JsonParseError } from './json-body-parser';

/**
 * Every HTTP error leaves the service in one body shape, worded by the one error translator, with the request
 * id: `{statusCode, error, code, message, details?, request_id}`. Unexpected errors are logged with their stack
 * and answered with a generic 500 that leaks nothing.
 */
@Catch()
export class GlobalExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const translated = translateError(exception);
    if (translated.unexpected) {
      this.logger.error(`unhandled error (request ${request.id})`, exception instanceof Error ? exception.stack : String(exception));
    }
    if (reply.sent || reply.raw.headersSent) {
      reply.raw.end();
      return;
    }
    for (const [name, value] of Object.entries(translated.headers ?? {})) reply.header(name, value);
    const jsonRpc = request.routeOptions?.config?.[JSON_RPC_ROUTE as never] === true;
    if (jsonRpc && isAboutTheBody(translated)) {
      const [status, envelope] = asJsonRpc(exception, translated);
      reply.code(status).send(envelope);
      return;
    }
    const body = errorBodyOf(translated, request.id);
    reply.code(translated.status).send(body);
  }
}

function isAboutTheBody(error: TranslatedError): boolean {
  return error.status === 400 || error.status === 413 || error.status === 415;
}

/**
 * A JSON-RPC route's body errors, as OpenEnv's server answers them: a body that is not JSON at all gets HTTP
 * 200 with a parse-error envelope (its validator posts to /mcp and checks for exactly that); a body too large,
 * in another format, or not acceptable keeps its 4xx with an envelope.
 */
function asJsonRpc(exception: unknown, error: TranslatedError): [number, unknown] {
  if (exception instanceof JsonParseError) return [200, rpcError(null, JSON_RPC.parseError, 'Parse error: the body is not valid JSON')];
  if (error.status === 413) return [413, rpcError(null, JSON_RPC.parseError, 'the message is too large')];
  return [error.status, rpcError(null, JSON_RPC.invalidRequest, error.message)];
}
