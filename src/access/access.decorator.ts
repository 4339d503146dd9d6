import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiSecurity, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '../common/error-body.dto';
import type { KeyScope, Principal } from './principal';
import { MergeRouteConfig } from './route-config';

/**
 * Who may call a route. Every route declares one (a test fails otherwise):
 * - public: anyone, no key looked at (health, discovery);
 * - agent: runs episodes (reset, step, baseline, MCP): an agent key, or no key as the public tenant in open mode;
 * - episode: reads one episode (state, grade): an agent key (the episodes it started), a reader key (its tenant's),
 *   or no key in open mode;
 * - audit: audits, exports and statistics: a reader key, no key in open mode, or the admin key (every tenant);
 * - admin: the admin key only.
 */
export type AccessLevel = 'public' | 'agent' | 'episode' | 'audit' | 'admin';

export const ACCESS_METADATA = 'supportdesk:access';
/** The same rule in the route's platform config, where authentication reads it before the body is parsed. */
export const ACCESS_ROUTE_CONFIG = 'access';

export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'api_key';

/** The key scopes (and the anonymous open-mode user) each level admits; the admin key is decided separately. */
const SCOPES: Record<Exclude<AccessLevel, 'public' | 'admin'>, ReadonlyArray<KeyScope | 'anonymous'>> = {
  agent: ['agent', 'anonymous'],
  episode: ['agent', 'reader', 'anonymous'],
  audit: ['reader', 'anonymous'],
};

/** Why a principal may not use a route of this level, or null when it may. */
export function accessRefusal(level: AccessLevel, principal: Principal): string | null {
  if (level === 'public') return null;
  if (principal.kind === 'admin') {
    if (level === 'admin' || level === 'audit') return null;
    return 'the admin key manages tenants and reads audits; run episodes with a tenant key';
  }
  if (level === 'admin') return 'this route needs the admin key';
  if (SCOPES[level].includes(principal.scope)) return null;
  return level === 'agent'
    ? 'a reader key cannot run episodes; use an agent key'
    : 'an agent key reads only the episodes it started; audits, exports and statistics need a reader key';
}

/** On each route method (not on a controller: the HTTP platform reads route config from the handler only). */
function rule(level: AccessLevel): MethodDecorator {
  const secured =
    level === 'public'
      ? []
      : [
          ApiBearerAuth(BEARER_SCHEME),
          ApiSecurity(API_KEY_SCHEME),
          ApiUnauthorizedResponse({ description: 'Missing, unknown or revoked API key', type: ErrorBodyDto }),
          ApiForbiddenResponse({ description: 'The key is not allowed on this route (its scope, or the admin key)', type: ErrorBodyDto }),
          ApiTooManyRequestsResponse({ description: 'Over the rate limit, or too many failed authentications; Retry-After says when to retry', type: ErrorBodyDto }),
        ];
  return applyDecorators(SetMetadata(ACCESS_METADATA, level), MergeRouteConfig({ [ACCESS_ROUTE_CONFIG]: level }), ...secured) as MethodDecorator;
}

export const Access = {
  Public: () => rule('public'),
  Agent: () => rule('agent'),
  Episode: () => rule('episode'),
  Audit: () => rule('audit'),
  Admin: () => rule('admin'),
};
