import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ACCESS_METADATA, accessRefusal, type AccessLevel } from '../access/access.decorator';
import type { RequestWithPrincipal } from '../access/principal';
import { ForbiddenError } from '../common/errors/domain-errors';
import { RequestAuthentication } from './request-authentication';

/**
 * The second line of the access rules. Authentication itself runs before the body is read (an HTTP platform hook,
 * RequestAuthentication); this guard makes sure every Nest route declares a rule (a route that says nothing is
 * refused, and a test fails) and that the principal found is allowed on it, so a route can never be opened by
 * forgetting something. A request with no principal passes only where its address lets it in without a key
 * (/metrics, METRICS_ALLOW_FROM): asked again here, from the request itself.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authentication: RequestAuthentication,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const level = this.reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_METADATA, [context.getHandler(), context.getClass()]);
    if (!level) throw new ForbiddenError('this route declares no access rule');
    if (level === 'public') return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithPrincipal>();
    const principal = request.principal;
    if (!principal && this.authentication.admitsWithoutKey(level, request)) return true;
    if (!principal) throw new ForbiddenError('the request was not authenticated');
    const refusal = accessRefusal(level, principal);
    if (refusal) throw new ForbiddenError(refusal);
    return true;
  }
}
