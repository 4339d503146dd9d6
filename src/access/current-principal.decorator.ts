import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { callerOf, type EpisodeCaller, type Principal, type RequestWithPrincipal } from './principal';

function principalOf(ctx: ExecutionContext): Principal {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new Error('no principal on the request: is the route missing an @Access decorator?');
  return principal;
}

/** The principal authentication resolved for this request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => principalOf(ctx));

/** The caller of an agent- or episode-level route: its tenant, its key, and whether it sees the whole tenant. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): EpisodeCaller => {
  const principal = principalOf(ctx);
  if (principal.kind !== 'tenant') throw new Error('CurrentCaller used on a route the admin key may call');
  return callerOf(principal);
});
