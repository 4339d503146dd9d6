import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import pino, { type Logger } from 'pino';
import pinoPretty from 'pino-pretty';
import type { RequestWithPrincipal } from '../access/principal';
import { RateLimiter } from '../replicas';
import type { Clock } from '../common/clock';
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
  // Written asynchronously: a busy server's request lines are gathered into few writes, and a slow stdout (a pipe
  // a collector drains late) never blocks the event loop. Pending lines are flushed synchronously at exit.
  if (!pretty) return pino(options, pino.destination({ dest: 1, sync: false }));
  // In-process and synchronous (no worker thread): lines stay in order with everything else on the terminal.
  return pino(options, pinoPretty({ sync: true, translateTime: 'SYS:HH:MM:ss', ignore: FIELDS_THE_MESSAGE_SAYS, colorize: process.stdout.isTTY === true }));
}

/** On a terminal, the fields whose gist each message already says (a stack or an error still shows). */
const FIELDS_THE_MESSAGE_SAYS = [
  'pid', 'hostname', 'context', 'migrations',
  'req', 'res', 'responseTime', 'tenant', 'route',
  'address', 'docs', 'database', 'mode', 'reachable_from', 'families', 'version',
].join(',');

/** Logged URLs are cut to this many characters (the rest is counted): a request line may be 16 KB. */
export const MAX_LOGGED_URL_LENGTH = 512;

/**
 * Lines per minute (a minute's worth of burst) for error responses to requests that authenticated as no one
 * (wrong keys, unknown paths, refused hosts), per client address: past it they are counted, not written, and the
 * next line written for that address says how many were left out. Anyone can send such requests as fast as the
 * connection caps allow, and the log is shared by every tenant.
 */
export const UNAUTHENTICATED_ERROR_LINES_PER_MINUTE = 30;

/**
 * One JSON line per request once its response is finished (or the client went away): request id (honoured from
 * and echoed in `x-request-id`), method, URL (secrets redacted, cut to MAX_LOGGED_URL_LENGTH), status, latency,
 * tenant and route. Credentials never reach the log: no headers are logged at all. Registered on the raw
 * response, so requests whose response a route writes itself (MCP, the export stream) are logged too. Error
 * responses to unauthenticated requests are sampled per client address (UNAUTHENTICATED_ERROR_LINES_PER_MINUTE).
 */
export function registerRequestLogging(instance: FastifyInstance, logger: Logger, clock: Clock): void {
  const sampler = new UnauthenticatedNoise(() => clock.now().getTime());
  instance.addHook('onClose', (_instance, done) => {
    sampler.stop();
    done();
  });
  instance.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('x-request-id', request.id);
    const started = process.hrtime.bigint();
    reply.raw.once('close', () => {
      const status = reply.raw.statusCode;
      const context = contextOf(request);
      let suppressed = 0;
      if (status >= 400 && status < 500 && context.tenant === null) {
        const admitted = sampler.admit(request.ip);
        if (admitted === null) return;
        suppressed = admitted;
      }
      const url = loggableUrl(request.url);
      const line = {
        req: { id: request.id, method: request.method, url },
        res: { status },
        responseTime: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...context,
        ...(suppressed > 0 ? { suppressed_before: suppressed } : {}),
      };
      const message = `${request.method} ${url} ${status}${reply.raw.writableFinished ? '' : ' (closed before the response was sent)'}`;
      if (status >= 500) logger.error(line, message);
      else if (status >= 400 || !reply.raw.writableFinished) logger.warn(line, message);
      else logger.info(line, message);
    });
    done();
  });
}

/** Per client address, how many unauthenticated error lines may still be written, and how many were left out. */
class UnauthenticatedNoise {
  private readonly budget: RateLimiter;
  private readonly left = new Map<string, number>();
  private readonly pruner = setInterval(() => this.budget.prune(), 60_000).unref();

  constructor(now: () => number) {
    this.budget = new RateLimiter(UNAUTHENTICATED_ERROR_LINES_PER_MINUTE, now);
  }

  /** null: leave this line out; otherwise the number of lines left out since the last one written. */
  admit(address: string): number | null {
    if (this.budget.take(address) > 0) {
      this.left.set(address, (this.left.get(address) ?? 0) + 1);
      return null;
    }
    const suppressed = this.left.get(address) ?? 0;
    this.left.delete(address);
    return suppressed;
  }

  stop(): void {
    clearInterval(this.pruner);
  }
}

/** Query parameters that may carry a secret (a client's `?api_key=` on the /ws upgrade, or by mistake anywhere). */
const SECRET_PARAMETER = /^(?:api[_-]?key|key|token|access[_-]?token|password|secret)$/i;

/**
 * The URL as it may be logged: the values of secret-looking query parameters replaced. Parameter names are
 * compared as a query parser reads them (percent-decoded, `+` as a space), so `?api%5Fkey=` and `?%61pi_key=`,
 * which the server reads as `api_key`, are redacted too.
 */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const hash = url.indexOf('#', start);
  const end = hash === -1 ? url.length : hash;
  const query = url
    .slice(start + 1, end)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals === -1 ? part : part.slice(0, equals);
      return SECRET_PARAMETER.test(decodedName(name)) ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${query}${url.slice(end)}`;
}

function decodedName(name: string): string {
  const spaced = name.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A malformed escape elsewhere in the name: decode the well-formed ones.
    return spaced.replace(/%([0-9a-f]{2})/gi, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** Redacted, then cut to MAX_LOGGED_URL_LENGTH characters. */
export function loggableUrl(url: string): string {
  const redacted = redactUrl(url);
  if (redacted.length <= MAX_LOGGED_URL_LENGTH) return redacted;
  return `${redacted.slice(0, MAX_LOGGED_URL_LENGTH)}…[${redacted.length - MAX_LOGGED_URL_LENGTH} more characters]`;
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
