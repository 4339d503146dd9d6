import { randomUUID } from 'node:crypto';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { generateApiKey, hashApiKey, visiblePrefix } from './api-key-secret';
import { ConflictError, NotFoundError } from '../common/errors/domain-errors';
import type { KeyScope } from '../access/principal';
import type { AdminEventDto, ApiKeyDto, CreatedApiKeyDto, TenantDto } from './dto/tenant.dto';
import { KeyRevocations } from './key-revocations';
import { PUBLIC_TENANT } from './tenant.constants';
import { TenantRepository, type ApiKeyRecord } from './tenant.repository';
import { Clock } from '../common/clock';
import type { Tenant } from '../generated/prisma/client';

@Injectable()
export class TenantsService implements OnModuleInit {
  constructor(
    private readonly tenants: TenantRepository,
    private readonly revocations: KeyRevocations,
    private readonly clock: Clock,
  ) {}

  /** The public tenant must exist before the first anonymous episode references it. */
  async onModuleInit(): Promise<void> {
    await this.tenants.ensure(PUBLIC_TENANT);
  }

  async create(slug: string, name: string): Promise<TenantDto> {
    const taken = await this.tenants.findBySlug(slug, true);
    if (taken?.deletingAt) throw new ConflictError(`the tenant "${slug}" is being deleted; its slug is free once that has finished`);
    if (taken) throw new ConflictError(`a tenant "${slug}" already exists`);
    const tenant = await this.tenants.create({ id: randomUUID(), slug, name });
    return presentTenant(tenant, 0);
  }

  async list(): Promise<TenantDto[]> {
    return (await this.tenants.list()).map((t) => presentTenant(t, t.activeKeys));
  }

  /** Issues a key; the only time the secret is ever returned. */
  async issueKey(slug: string, name: string, scope: KeyScope): Promise<CreatedApiKeyDto> {
    const tenant = await this.requireTenant(slug);
    const secret = generateApiKey();
    const record = await this.tenants.createKey(tenant.id, {
      id: randomUUID(),
      name,
      scope,
      prefix: visiblePrefix(secret),
      hash: hashApiKey(secret),
    });
    return { ...presentKey(record, tenant.slug), key: secret };
  }

  async listKeys(slug: string): Promise<ApiKeyDto[]> {
    const tenant = await this.requireTenant(slug);
    return (await this.tenants.listKeys(tenant.id)).map((k) => presentKey(k, tenant.slug));
  }

  async revokeKey(slug: string, keyId: string): Promise<ApiKeyDto> {
    const tenant = await this.requireTenant(slug);
    const key = await this.tenants.revokeKey(tenant.id, keyId, this.clock.now());
    if (!key) throw new NotFoundError(`tenant "${slug}" has no key "${keyId}"`);
    // Open sessions authenticated by this key end now, not on their next check.
    this.revocations.revoked(key.id);
    return presentKey(key, tenant.slug);
  }

  /** The admin log (tenants created, keys issued and revoked), newest first. */
  async events(limit: number, beforeId?: number): Promise<AdminEventDto[]> {
    const slugs = new Map((await this.tenants.list()).map((t) => [t.id, t.slug]));
    return (await this.tenants.listEvents(limit, beforeId)).map((e) => ({
      id: e.id,
      at: e.at.toISOString(),
      action: e.action,
      tenant: slugs.get(e.tenantId) ?? e.tenantId,
      key_id: e.keyId,
      detail: JSON.parse(e.detail) as Record<string, unknown>,
    }));
  }

  /** Resolves an admin-supplied tenant slug to its id (for cross-tenant audit filters). */
  async tenantIdOf(slug: string): Promise<string> {
    return (await this.requireTenant(slug)).id;
  }

  async requireTenant(slug: string) {
    const tenant = await this.tenants.findBySlug(slug);
    if (!tenant) throw new NotFoundError(`no tenant "${slug}"`);
    return tenant;
  }
}

function presentTenant(tenant: Tenant, activeKeys: number): TenantDto {
  return {
    id: tenant.id,
    slug: tenant.slug,
    name: tenant.name,
    created_at: tenant.createdAt.toISOString(),
    active_keys: activeKeys,
    retention_days: tenant.retentionDays,
  };
}

function presentKey(key: ApiKeyRecord, tenantSlug: string): ApiKeyDto {
  return {
    id: key.id,
    tenant: tenantSlug,
    name: key.name,
    scope: key.scope === 'reader' ? 'reader' : 'agent',
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
