import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics';

/**
 * Counts and times every HTTP response once it is sent (routes that write their own response, /mcp and the export
 * streams, included), labelled by the route's template (`/episodes/:episode_id`, never the path a client sent) so the
 * number of series is bounded by the routes; a request no route matched is counted under `unmatched`. A response the
 * client went away from before it was finished is not counted.
 */
export function registerHttpMetrics(instance: FastifyInstance, metrics: Metrics): void {
  instance.addHook('onResponse', (request, reply, done) => {
    metrics.httpResponse(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}
