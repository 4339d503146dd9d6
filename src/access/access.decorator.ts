import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiForbiddenResponse, ApiSecurity, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { ErrorBodyDto } from '../common/error-body.dto';

/**
 * Who may call a route. Every route declares one (a test fails otherwise):
 * - public: anyone, no key looked at (health, discovery);
 * - tenant: a tenant's key, or no key at all as the built-in public tenant unless REQUIRE_API_KEY is on;
 * - audit: like tenant, and the admin key too, which reads across tenants;
 * - admin: the admin key only.
 */
export type AccessLevel = 'public' | 'tenant' | 'audit' | 'admin';

export const ACCESS_METADATA = 'supportdesk:access';

export const BEARER_SCHEME = 'bearer';
export const API_KEY_SCHEME = 'api_key';

function secured(level: AccessLevel) {
  return applyDecorators(
    SetMetadata(ACCESS_METADATA, level),
    ApiBearerAuth(BEARER_SCHEME),
    ApiSecurity(API_KEY_SCHEME),
    ApiUnauthorizedResponse({ description: 'Missing, unknown or revoked API key', type: ErrorBodyDto }),
    ...(level === 'admin' || level === 'tenant'
      ? [ApiForbiddenResponse({ description: 'The key is not allowed on this route', type: ErrorBodyDto })]
      : []),
  );
}

export const Access = {
  Public: () => SetMetadata(ACCESS_METADATA, 'public' satisfies AccessLevel),
  Tenant: () => secured('tenant'),
  Audit: () => secured('audit'),
  Admin: () => secured('admin'),
};
