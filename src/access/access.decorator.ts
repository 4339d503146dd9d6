import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { KeyScope, Principal } from './principal';
import { MergeRouteConfig } from './route-config';

/**
 * Who may call a route. Every route declares one (a test fails otherwise):
 * - public: anyone, no key looked at (health, discovery);
 * - catalogue: any key (agent, reader or admin), or no key in open mode: previews of task instances, where what
 *   the caller may see depends on its key;
 * - agent: runs episodes (reset, step, baseline, MCP): an agent key, or no key as the public tenant in open mode;
 * - episode: reads one episode (state, grade): an agent key (the episodes it started), a reader key (its tenant's),
 *   or no key in open mode;
 * - audit: audits, exports and statistics: a reader key, no key in open mode, or the admin key (every tenant);
 * - admin: the admin key only;
 * - metrics: the admin key, or no key from a client address in METRICS_ALLOW_FROM (a Prometheus server that holds
 *   no secret: RequestAuthentication.admitsWithoutKey).
 */
export type AccessLevel = 'public' | 'catalogue' | 'agent' | 'episode' | 'audit' | 'admin' | 'metrics';

export const ACCESS_METADATA = 'supportdesk:access';
/** The same rule in the route's platform config, where authentication reads it before the body is parsed. */
export const ACCESS_ROUTE_CONFIG = 'access';

/** The security schemes of the OpenAPI document: the same key sent three ways. */
export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'api_key';
export const BASIC_SCHEME = 'basic';

/** The OpenAPI extension naming an operation's access level; the document builder declares security and 401/403 from it. */
export const ACCESS_EXTENSION = 'x-access';

/** What each level asks of the caller, in words, for the document. */
export const ACCESS_DESCRIPTIONS: Record<AccessLevel, string> = {
  public: 'No key needed.',
  catalogue: 'Needs any key: an agent key, a reader key or the admin key (or no key when the server does not require keys).',
  agent: 'Needs an agent key (or no key, as the public tenant, when the server does not require keys).',
  episode: 'Needs an agent key (the episodes it started) or a reader key (its tenant’s), or no key when the server does not require keys.',
  audit: 'Needs a reader key (its tenant), the admin key (every tenant), or no key when the server does not require keys.',
  admin: 'Needs the admin key.',
  metrics: 'Needs the admin key, or no key from a client address in METRICS_ALLOW_FROM (none by default).',
};

/** The key scopes (and the anonymous open-mode user) each level admits; the admin key is decided separately. */
const SCOPES: Record<Exclude<AccessLevel, 'public' | 'admin' | 'metrics'>, ReadonlyArray<KeyScope | 'anonymous'>> = {
  catalogue: ['agent', 'reader', 'anonymous'],
  agent: ['agent', 'anonymous'],
  episode: ['agent', 'reader', 'anonymous'],
  audit: ['reader', 'anonymous'],
};

/** Why a principal may not use a route of this level, or null when it may. */
export function accessRefusal(level: AccessLevel, principal: Principal): string | null {
  if (level === 'public') return null;
  if (principal.kind === 'admin') {
    if (level === 'admin' || level === 'metrics' || level === 'audit' || level === 'catalogue') return null;
    return 'the admin key manages tenants and reads audits; run episodes with a tenant key';
  }
  if (level === 'admin') return 'this route needs the admin key';
  if (level === 'metrics') return 'this route needs the admin key (or no key, from a client address in METRICS_ALLOW_FROM)';
  if (SCOPES[level].includes(principal.scope)) return null;
  return level === 'agent'
    ? 'a reader key cannot run episodes; use an agent key'
    : 'an agent key reads only the episodes it started; audits, exports and statistics need a reader key';
}

/**
 * On each route method (not on a controller: the HTTP platform reads route config from the handler only). The
 * level also goes into the OpenAPI document (`x-access`), from which its security and the 401/403 it can answer
 * are declared.
 */
function rule(level: AccessLevel): MethodDecorator {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, level),
    MergeRouteConfig({ [ACCESS_ROUTE_CONFIG]: level }),
    ApiExtension(ACCESS_EXTENSION, level),
  ) as MethodDecorator;
}

export const Access = {
  Public: () => rule('public'),
  Catalogue: () => rule('catalogue'),
  Agent: () => rule('agent'),
  Episode: () => rule('episode'),
  Audit: () => rule('audit'),
  Admin: () => rule('admin'),
  Metrics: () => rule('metrics'),
};
