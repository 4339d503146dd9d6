import { createServer, type IncomingMessage, type RequestListener } from 'node:http';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { errorCodeOf, reasonPhrase } from '../common/errors/error-translator';
import type { ErrorBodyDto } from '../common/error-body.dto';
import type { Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { answerClientError } from './client-error-handler';
import { registerHostCheck } from './host-allow-list';
import { registerJsonBodyParser } from './json-body-parser';
import { ProxyTrust } from './proxy-trust';
import { requestIdFrom } from './request-id';
import { registerRequestLogging } from './request-logging';

/**
 * The HTTP platform: Fastify (Nest's supported alternative to express; a constant route runs about 2.5 times as
 * fast on it here), set up as the service needs before any route is registered: request ids, one log line per
 * request, the JSON body parser with its limits and checks, and the service's error body for requests Node's
 * parser rejects. Paths match as express matched them (a trailing slash and letter case do not matter).
 */
export function createHttpAdapter(config: AppConfig, logger: Logger, clock: Clock): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers),
    // Requests are logged once, by registerRequestLogging; the platform's own logger stays off.
    logger: false,
    clientErrorHandler: answerClientError,
    // URLs the router refuses before any route runs (a path parameter over 100 characters, a malformed
    // percent-encoding) get the service's error body too.
    frameworkErrors: answerFrameworkError,
    routerOptions: { ignoreTrailingSlash: true, caseSensitive: false },
    // On SIGTERM the server stops accepting connections and closes idle ones, but a request that reaches it on an
    // open connection meanwhile (sent before the signal, read after it) is served like any other, not answered
    // with Fastify's bare 503: the database closes only once the HTTP server has finished (the crash test's
    // graceful phase requires every in-flight request answered).
    return503OnClosing: false,
    // Only the proxies in TRUSTED_PROXIES (none by default) are believed about the client's address, scheme and
    // host; the same decision is made for the /ws upgrade and the connection caps (ProxyTrust).
    trustProxy: ProxyTrust.of(config).forFastify(),
    // Node checks the headers and request deadlines of open connections every `connectionsCheckingInterval`
    // (30 s by default), so a client trickling its headers was cut off up to 30 s late; checked every second here.
    // A server factory also skips Fastify's keep-alive default (72 s), which would leave Node's 5 s: a client or
    // proxy that reuses an idle connection just as the server closes it gets a reset instead of an answer. An idle
    // keep-alive connection never crowds out a newcomer (limitConnections evicts the one idle the longest).
    serverFactory: (handler: RequestListener) =>
      createServer(
        {
          connectionsCheckingInterval: Math.min(1_000, config.headersTimeoutMs),
          headersTimeout: Math.min(config.headersTimeoutMs, config.requestTimeoutMs),
          requestTimeout: config.requestTimeoutMs,
          keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
        },
        handler,
      ),
  });
  const instance = adapter.getInstance();
  registerRequestLogging(instance, logger, clock);
  registerHostCheck(instance, config);
  registerJsonBodyParser(instance, config.bodyLimitBytes);
  closeConnectionsWhenClosing(instance, config.shutdownGraceMs);
  return adapter;
}

/**
 * Once the server is shutting down, every answer says `Connection: close`, so a keep-alive connection closes as soon
 * as its request is answered instead of idling for KEEP_ALIVE_TIMEOUT_MS and holding the process open. Connections
 * idle at that moment are closed by Node's `server.close()`; it runs SHUTDOWN_GRACE_MS later, so that a request a
 * client wrote on an idle connection just before the signal is read and answered, not reset with its socket (the
 * crash test's graceful phase caught that race in CI).
 */
function closeConnectionsWhenClosing(instance: FastifyInstance, graceMs: number): void {
  let closing = false;
  instance.addHook('preClose', (done) => {
    closing = true;
    // An app that never listened (tests, tools) has no connections to wait for.
    if (instance.server.listening && graceMs > 0) setTimeout(done, graceMs);
    else done();
  });
  instance.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}

/** Fastify's own default: longer than the idle timeouts of common proxies and load balancers (60 s). */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

const FRAMEWORK_ERRORS: Record<string, [number, string]> = {
  FST_ERR_MAX_PARAM_LENGTH: [414, 'a path segment of the URL is longer than 100 characters; no id is that long'],
  FST_ERR_BAD_URL: [400, 'the URL is not valid: a malformed percent-encoding'],
};

/** Fastify's own refusals of a URL, in the service's error body (the URL itself is not echoed). */
function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [status, message] = FRAMEWORK_ERRORS[error.code] ?? [400, 'the request could not be routed'];
  const body: ErrorBodyDto = { statusCode: status, error: reasonPhrase(status), code: errorCodeOf(status), message, request_id: request.id };
  void reply.code(status).header('x-request-id', request.id).send(body);
}
