import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Principal, RequestWithPrincipal } from './principal';

/** The principal the auth guard resolved for this request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('no principal on the request: is the route missing an @Access decorator?');
  return principal;
});

/** The tenant a tenant-level route acts for. */
export const CurrentTenant = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (principal?.kind !== 'tenant') throw new Error('CurrentTenant used on a route that is not tenant-level');
  return principal.tenantId;
});
