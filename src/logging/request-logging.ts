import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';
import type { RequestWithPrincipal } from '../auth/principal';

/** A client-supplied request id is kept if it looks like an id; anything else is replaced, never logged raw. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const PINO_LEVELS: Record<AppConfig['logLevel'], string> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
  silent: 'silent',
};

/**
 * One JSON line per request: request id (honoured from and echoed in `x-request-id`), tenant, route, status and
 * latency. Credentials never reach the log: the request serializer keeps no headers, and redaction covers the
 * two that carry keys in case a serializer ever does.
 */
export function requestLoggingParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: PINO_LEVELS[config.logLevel],
      genReqId: (req: IncomingMessage, res: ServerResponse) => {
        const incoming = req.headers['x-request-id'];
        const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
        res.setHeader('x-request-id', id);
        return id;
      },
      redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]'], censor: '[redacted]' },
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      },
      // Added to the completion line only (pino-http also evaluates customProps when the request starts, before
      // the principal and the matched route are known, which would log both twice).
      customSuccessObject: (req: IncomingMessage, _res: ServerResponse, line: object) => ({ ...line, ...context(req) }),
      customErrorObject: (req: IncomingMessage, _res: ServerResponse, _error: Error, line: object) => ({
        ...line,
        ...context(req),
      }),
      customSuccessMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${req.url} ${res.statusCode}`,
      customErrorMessage: (req: IncomingMessage, res: ServerResponse) => `${req.method} ${req.url} ${res.statusCode}`,
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
        error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    },
  };
}

/** The tenant (or "admin") the request acted for and the route pattern it matched, once both are known. */
function context(req: IncomingMessage): { tenant: string | null; route: string | null } {
  const principal = (req as IncomingMessage & RequestWithPrincipal).principal;
  const route = (req as IncomingMessage & { route?: { path?: string } }).route?.path;
  return {
    tenant: principal === undefined ? null : principal.kind === 'admin' ? 'admin' : principal.tenantId,
    route: route ?? null,
  };
}
