import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../common/errors/domain-errors';
import type { AppConfig } from '../config/app-config';

/**
 * DNS rebinding: a web page on another site makes a visitor's browser resolve its own name to 127.0.0.1 and talk
 * to a server on their laptop. Such a request names the page's host in `Host` (and its origin in `Origin`), so
 * only the names in ALLOWED_HOSTS (loopback names by default) are answered, and a browser request from another
 * origin is refused (the MCP specification requires checking Origin). Clients that are not browsers send no
 * Origin and are not affected. Checked on HTTP, on the /ws upgrade and on /mcp.
 */
export function hostOrOriginRefusal(headers: IncomingHttpHeaders, config: Pick<AppConfig, 'allowedHosts' | 'allowedOrigins'>): string | null {
  if (config.allowedHosts === '*') return originRefusal(headers.origin, config.allowedOrigins, null);
  const host = hostnameOf(headers.host);
  if (host === null || !config.allowedHosts.includes(host)) {
    return `the Host header ${JSON.stringify(headers.host ?? '')} is not one this server answers to (ALLOWED_HOSTS)`;
  }
  return originRefusal(headers.origin, config.allowedOrigins, config.allowedHosts);
}

/** An Origin is allowed when it is listed, or its host is an allowed host (any, when `allowedHosts` is null). */
function originRefusal(origin: string | undefined, allowedOrigins: string[], allowedHosts: string[] | null): string | null {
  if (origin === undefined || allowedHosts === null) return null;
  if (allowedOrigins.includes(origin.replace(/\/+$/, ''))) return null;
  let host: string | null = null;
  try {
    host = new URL(origin).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    host = null;
  }
  if (host !== null && allowedHosts.includes(host)) return null;
  return `requests from the web origin ${JSON.stringify(origin)} are not allowed (ALLOWED_HOSTS, ALLOWED_ORIGINS)`;
}

/** The host name of a Host header, without its port (and without the brackets of an IPv6 address). */
function hostnameOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(header.trim());
  return match ? match[1].replace(/^\[|\]$/g, '').toLowerCase() : null;
}

export function registerHostCheck(instance: FastifyInstance, config: AppConfig): void {
  instance.addHook('onRequest', async (request) => {
    const refusal = hostOrOriginRefusal(request.headers, config);
    if (refusal) throw new ForbiddenError(refusal);
  });
}
