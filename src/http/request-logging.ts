import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { RequestWithPrincipal } from '../access/principal';
import type { AppConfig } from '../config/app-config';

const PINO_LEVELS: Record<AppConfig['logLevel'], pino.LevelWithSilent> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
  silent: 'silent',
};

/**
 * The process's one logger, at LOG_LEVEL: JSON lines on stdout (or `destination`) for collectors, or text for a
 * person reading a terminal (LOG_FORMAT, by default chosen by whether stdout is one).
 */
export function createLogger(config: AppConfig, destination?: pino.DestinationStream): Logger {
  const options = { level: PINO_LEVELS[config.logLevel] };
  if (destination) return pino(options, destination);
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  if (!pretty) return pino(options);
  // In-process and synchronous (no worker thread): lines stay in order with everything else on the terminal.
  return pino(options, pinoPretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: FIELDS_THE_MESSAGE_SAYS, colorize: process.stdout.isTTY === true }));
}

/** On a terminal, the fields whose gist each message already says (a stack or an error still shows). */
const FIELDS_THE_MESSAGE_SAYS = [
  'pid', 'hostname', 'context', 'migrations',
  'req', 'res', 'responseTime', 'tenant', 'route',
  'address', 'docs', 'database', 'mode', 'reachable_from', 'families', 'version',
].join(',');

/**
 * One JSON line per request once its response is finished (or the client went away): request id (honoured from
 * and echoed in `x-request-id`), method, URL, status, latency, tenant and route. Credentials never reach the log:
 * no headers are logged at all. Registered on the raw response, so requests whose response a route writes itself
 * (MCP, the export stream) are logged too.
 */
export function registerRequestLogging(instance: FastifyInstance, logger: Logger): void {
  instance.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('x-request-id', request.id);
    const started = process.hrtime.bigint();
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      const url = redactUrl(request.url);
      const line = {
        req: { id: request.id, method: request.method, url },
        res: { status },
        responseTime: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...contextOf(request),
      };
      const message = `${request.method} ${url} ${status}${reply.raw.writableFinished ? '' : ' (closed before the response was sent)'}`;
      if (status >= 500) logger.error(line, message);
      else if (status >= 400 || !reply.raw.writableFinished) logger.warn(line, message);
      else logger.info(line, message);
    });
    done();
  });
}

/** Query parameters that may carry a secret (a client's `?api_key=` on the /ws upgrade, or by mistake anywhere). */
const SECRET_PARAMETERS = /([?&](?:api[_-]?key|key|token|access[_-]?token|password|secret)=)[^&#]*/gi;

/** The URL as it may be logged: the values of secret-looking query parameters replaced. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMETERS, '$1[redacted]');
}

/** The tenant (or "admin") the request acted for and the route pattern it matched, once both are known. */
function contextOf(request: FastifyRequest): { tenant: string | null; route: string | null } {
  const principal = (request as FastifyRequest & RequestWithPrincipal).principal;
  return {
    tenant: principal === undefined ? null : principal.kind === 'admin' ? 'admin' : principal.tenantId,
    route: request.routeOptions?.url ?? null,
  };
}

const NEST_START_UP_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's own messages (start-up, errors) through the same logger, so the whole log is in one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    // Nest's start-up chatter (every module and route, ~40 lines) is detail; the start-up summary says what matters.
    if (context !== undefined && NEST_START_UP_CONTEXTS.has(context)) this.logger.debug(this.fields(context), String(message));
    else this.logger.info(this.fields(context), String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ ...this.fields(context), ...(trace ? { stack: trace } : {}) }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn(this.fields(context), String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug(this.fields(context), String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace(this.fields(context), String(message));
  }

  private fields(context?: string): object {
    return context ? { context } : {};
  }
}
