import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { PUBLIC_TENANT } from './tenant.constants';

/**
 * The tenant a request acts for. Until API keys exist every request is the public tenant; services take the
 * tenant id as their first argument already, so authentication only has to set `request.tenantId`.
 */
export const CurrentTenant = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const request = ctx.switchToHttp().getRequest<Request & { tenantId?: string }>();
  return request.tenantId ?? PUBLIC_TENANT.id;
});
