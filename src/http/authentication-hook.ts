import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCESS_ROUTE_CONFIG, type AccessLevel } from '../access/access.decorator';
import type { RequestWithPrincipal } from '../access/principal';
import { PROBE_PATH } from '../access/probe-path';
import type { RequestAuthentication } from '../auth/request-authentication';

/**
 * Authenticates every request as soon as its route is known and before its body is read, so a wrong key with a
 * malformed body is a 401, not a 400, and an unauthenticated client never costs a body parse. The route's access
 * rule comes from its platform config (@Access puts it there); routes without one (Swagger UI's assets, unknown
 * paths) are public, and so is /metrics for a scraper let in by its address (METRICS_ALLOW_FROM).
 */
export function registerAuthentication(instance: FastifyInstance, authentication: RequestAuthentication): void {
  instance.addHook('onRequest', async (request: FastifyRequest) => {
    const level = (request.routeOptions.config as unknown as Record<string, unknown> | undefined)?.[ACCESS_ROUTE_CONFIG] as AccessLevel | undefined;
    if (level === undefined || level === 'public' || authentication.admitsWithoutKey(level, request)) {
      // A load balancer's or an orchestrator's health probe is not a client: it must never be slowed down (HAProxy
      // takes a replica out after two refused checks), and it costs no rate-limit write per check.
      if (request.routeOptions.url !== PROBE_PATH) await authentication.countPublic(request.ip);
      return;
    }
    const query = request.query as Record<string, unknown> | undefined;
    (request as FastifyRequest & RequestWithPrincipal).principal = await authentication.authenticate(level, {
      headers: request.headers,
      clientAddress: request.ip,
      queryKey: typeof query?.api_key === 'string' ? query.api_key : queryKeyOf(request.url),
      acceptsQueryKey: false,
    });
  });
}

/** `?api_key=` even where the route's query was not parsed into an object (or was repeated). */
function queryKeyOf(url: string): string | null {
  const search = url.indexOf('?');
  return search === -1 ? null : new URLSearchParams(url.slice(search + 1)).get('api_key');
}
