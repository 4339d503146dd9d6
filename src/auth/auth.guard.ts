import {
  ForbiddenException,
  Inject,
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { PUBLIC_TENANT } from '../tenants/tenant.constants';
import { TenantRepository } from '../tenants/tenant.repository';
import { ACCESS_METADATA, type AccessLevel } from './access.decorator';
import { hashApiKey, sameSecret } from './api-key-secret';
import type { Principal, RequestWithPrincipal } from './principal';

/** last_used_at is written at most this often per key, so busy keys do not add a write to every request. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The one authentication and authorization point. Routes say who may call them with @Access; a route that
 * says nothing is refused (and a test fails), so forgetting the decorator can never open a route.
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly lastTouched = new Map<string, number>();

  constructor(
    private readonly reflector: Reflector,
    private readonly tenants: TenantRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = this.reflector.getAllAndOverride<AccessLevel | undefined>(ACCESS_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!level) throw new ForbiddenException('this route declares no access rule');
    if (level === 'public') return true;

    const request = context.switchToHttp().getRequest<Request & RequestWithPrincipal>();
    if (level === 'admin' && presentedKey(request) === null) {
      throw new UnauthorizedException('this route needs the admin key: send "Authorization: Bearer <admin key>"');
    }
    const principal = await this.identify(request);
    request.principal = principal;

    if (level === 'admin' && principal.kind !== 'admin') {
      throw new ForbiddenException('this route needs the admin key');
    }
    if (level === 'tenant' && principal.kind === 'admin') {
      throw new ForbiddenException('the admin key manages tenants and reads audits; run episodes with a tenant key');
    }
    return true;
  }

  private async identify(request: Request): Promise<Principal> {
    const key = presentedKey(request);
    if (key === null) {
      if (this.config.requireApiKey) {
        throw new UnauthorizedException('an API key is required: send "Authorization: Bearer <key>" or "X-API-Key: <key>"');
      }
      return { kind: 'tenant', tenantId: PUBLIC_TENANT.id, keyId: null };
    }
    if (this.config.adminApiKey !== null && sameSecret(key, this.config.adminApiKey)) return { kind: 'admin' };
    const record = await this.tenants.findKeyByHash(hashApiKey(key));
    // Wrong and revoked keys get the same answer, and never fall back to the public tenant.
    if (!record || record.revokedAt !== null) throw new UnauthorizedException('the API key is not valid');
    await this.touch(record.id);
    return { kind: 'tenant', tenantId: record.tenantId, keyId: record.id };
  }

  private async touch(keyId: string): Promise<void> {
    const now = Date.now();
    if (now - (this.lastTouched.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(keyId, now);
    await this.tenants.touchKey(keyId, new Date(now));
  }
}

/** The key from `Authorization: Bearer <key>` or `X-API-Key: <key>`; a malformed header is a 401. */
function presentedKey(request: Request): string | null {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new UnauthorizedException('the Authorization header must be "Bearer <key>"');
    return match[1];
  }
  const header = request.headers['x-api-key'];
  if (header === undefined) return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || value.trim() === '') throw new UnauthorizedException('the X-API-Key header is empty');
  return value.trim();
}
