import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

/**
 * Adds entries to a route's platform config (what the HTTP platform hands its hooks as `routeOptions.config`),
 * keeping the entries other decorators put there; Nest's own RouteConfig replaces the whole object.
 */
export function MergeRouteConfig(entries: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor: PropertyDescriptor) => {
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, descriptor.value) as Record<string, unknown> | undefined) ?? {};
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, ...entries }, descriptor.value);
    return descriptor;
  };
}
