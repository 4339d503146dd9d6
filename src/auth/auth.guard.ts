import type { IncomingHttpHeaders } from 'node:http';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ForbiddenError, UnauthenticatedError } from '../common/errors/domain-errors';
import { ACCESS_METADATA, type AccessLevel } from '../access/access.decorator';
import { Authenticator, presentedKey } from './authenticator';
import type { RequestWithPrincipal } from '../access/principal';

/**
 * The one authentication and authorization point. Routes say who may call them with @Access; a route that
 * says nothing is refused (and a test fails), so forgetting the decorator can never open a route.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly authenticator: Authenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = this.reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!level) throw new ForbiddenError('this route declares no access rule');
    if (level === 'public') return true;

    const request = context.switchToHttp().getRequest<{ headers: IncomingHttpHeaders } & RequestWithPrincipal>();
    const key = presentedKey(request.headers);
    if (level === 'admin' && key === null) {
      throw new UnauthenticatedError('this route needs the admin key: send "Authorization: Bearer <admin key>"');
    }
    const principal = await this.authenticator.identify(key);
    request.principal = principal;

    if (level === 'admin' && principal.kind !== 'admin') {
      throw new ForbiddenError('this route needs the admin key');
    }
    if (level === 'tenant' && principal.kind === 'admin') {
      throw new ForbiddenError('the admin key manages tenants and reads audits; run episodes with a tenant key');
    }
    return true;
  }
}
