import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../common/errors/domain-errors';
import type { AppConfig } from '../config/app-config';
import { ProxyTrust, type ForwardedRequest } from './proxy-trust';

type HostConfig = Pick<AppConfig, 'allowedHosts' | 'allowedOrigins' | 'trustedProxies'>;

/**
 * Two checks against web pages driving the server through a visitor's browser, on HTTP, the /ws upgrade and /mcp
 * alike (the MCP specification requires checking Origin):
 * - DNS rebinding: a page on another site makes the browser resolve its own name to 127.0.0.1, so its requests
 *   name the page's host. Only the names in ALLOWED_HOSTS (loopback names by default; `*` for any) are answered.
 * - Cross-origin requests: a browser names the page that sent a request in `Origin`. It is accepted only when it
 *   is the server's own origin — the scheme, host and port the request was addressed to, as a trusted proxy
 *   forwards them (TRUSTED_PROXIES) — or is listed in ALLOWED_ORIGINS. This holds whatever ALLOWED_HOSTS says:
 *   a WebSocket is not bound by CORS, so with any Host allowed, any page could otherwise open /ws on localhost.
 * Clients that are not browsers send no Origin and are not affected; the server's own pages (Swagger UI at /docs)
 * are same-origin.
 */
export function hostOrOriginRefusal(request: ForwardedRequest, config: HostConfig): string | null {
  const requested = ProxyTrust.of(config).requestedOrigin(request);
  if (config.allowedHosts !== '*') {
    const host = hostnameOf(requested.host);
    if (host === null || !config.allowedHosts.includes(host)) {
      return `the Host header ${JSON.stringify(requested.host ?? '')} is not one this server answers to (ALLOWED_HOSTS)`;
    }
  }
  return originRefusal(request.headers.origin, requested, config.allowedOrigins);
}

function originRefusal(origin: string | undefined, requested: { scheme: string; host: string | undefined }, allowedOrigins: string[]): string | null {
  if (origin === undefined) return null;
  const given = originOf(origin);
  if (given !== null && (given === originOf(`${requested.scheme}://${requested.host ?? ''}`) || allowedOrigins.some((o) => originOf(o) === given))) {
    return null;
  }
  return `requests from the web origin ${JSON.stringify(origin.slice(0, 200))} are not allowed: only this server's own origin and those in ALLOWED_ORIGINS are`;
}

/** `scheme://host[:port]` normalised (lower case, default port left out), or null for `null` and non-URLs. */
function originOf(text: string): string | null {
  try {
    const url = new URL(text);
    return url.origin === 'null' || url.host === '' ? null : url.origin;
  } catch {
    return null;
  }
}

/** The host name of a Host header, without its port (and without the brackets of an IPv6 address). */
function hostnameOf(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(header.trim());
  return match ? match[1].replace(/^\[|\]$/g, '').toLowerCase() : null;
}

export function registerHostCheck(instance: FastifyInstance, config: AppConfig): void {
  instance.addHook('onRequest', async (request) => {
    const refusal = hostOrOriginRefusal(request.raw, config);
    if (refusal) throw new ForbiddenError(refusal);
  });
}
