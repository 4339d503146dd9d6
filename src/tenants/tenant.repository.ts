import { Injectable } from '@nestjs/common';
import type { KeyScope } from '../access/principal';
import { Database } from '../database/database.service';
import type { AdminEvent, ApiKey, Tenant } from '../generated/prisma/client';

export type ApiKeyRecord = Omit<ApiKey, 'hash'>;

/** What an admin action did, as recorded in the admin audit log. */
export interface AdminEventInput {
  action: 'tenant.created' | 'key.issued' | 'key.revoked' | 'chain.legacy_sealed';
  tenantId: string;
  keyId?: string;
  detail: Record<string, string>;
}

/** Tenants, their API keys and the admin audit log. Keys are looked up by hash; the key itself is never stored. */
@Injectable()
export class TenantRepository {
  constructor(private readonly database: Database) {}

  ensure(tenant: { id: string; slug: string; name: string }): Promise<void> {
    return this.database.serialized(async (db) => {
      await db.tenant.upsert({ where: { id: tenant.id }, create: tenant, update: {} });
    });
  }

  /** Creates the tenant and records it in the admin log, in one transaction. */
  create(tenant: { id: string; slug: string; name: string }): Promise<Tenant> {
    return this.database.serialized((db) =>
      db.$transaction(async (tx) => {
        const created = await tx.tenant.create({ data: tenant });
        await tx.adminEvent.create({ data: event({ action: 'tenant.created', tenantId: created.id, detail: { slug: tenant.slug, name: tenant.name } }) });
        return created;
      }),
    );
  }

  /** The tenants with a retention period: what the retention sweep visits. */
  withRetention(): Promise<Tenant[]> {
    return this.database.serialized((db) => db.tenant.findMany({ where: { retentionDays: { not: null }, deletingAt: null }, orderBy: { createdAt: 'asc' } }));
  }

  /** The tenants whose deletion began and was cut short (retention.service.ts finishes them). */
  beingDeleted(): Promise<Tenant[]> {
    return this.database.serialized((db) => db.tenant.findMany({ where: { deletingAt: { not: null } }, orderBy: { deletingAt: 'asc' } }));
  }

  /** A tenant by its slug; one being deleted is no longer found, unless `includeDeleting`. */
  async findBySlug(slug: string, includeDeleting = false): Promise<Tenant | null> {
    const tenant = await this.database.serialized((db) => db.tenant.findUnique({ where: { slug } }));
    return tenant?.deletingAt && !includeDeleting ? null : tenant;
  }

  list(): Promise<(Tenant & { activeKeys: number })[]> {
    return this.database.serialized(async (db) => {
      const tenants = await db.tenant.findMany({
        where: { deletingAt: null },
        orderBy: { createdAt: 'asc' },
        include: { _count: { select: { apiKeys: { where: { revokedAt: null } } } } },
      });
      return tenants.map(({ _count, ...tenant }) => ({ ...tenant, activeKeys: _count.apiKeys }));
    });
  }

  /** Stores a new key (its hash) and records the issue in the admin log, in one transaction. */
  createKey(tenantId: string, key: { id: string; name: string; scope: KeyScope; prefix: string; hash: string }): Promise<ApiKeyRecord> {
    return this.database.serialized((db) =>
      db.$transaction(async (tx) => {
        const created = await tx.apiKey.create({ data: { ...key, tenantId }, omit: { hash: true } });
        await tx.adminEvent.create({
          data: event({ action: 'key.issued', tenantId, keyId: key.id, detail: { name: key.name, scope: key.scope, prefix: key.prefix } }),
        });
        return created;
      }),
    );
  }

  listKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.database.serialized((db) =>
      db.apiKey.findMany({ where: { tenantId }, orderBy: { createdAt: 'asc' }, omit: { hash: true } }),
    );
  }

  /** Marks a key revoked (idempotent: revoking twice records it once); null when the tenant has no such key. */
  revokeKey(tenantId: string, keyId: string, at: Date): Promise<ApiKeyRecord | null> {
    return this.database.serialized((db) =>
      db.$transaction(async (tx) => {
        const key = await tx.apiKey.findFirst({ where: { id: keyId, tenantId }, omit: { hash: true } });
        if (!key) return null;
        if (key.revokedAt) return key;
        const revoked = await tx.apiKey.update({ where: { id: keyId }, data: { revokedAt: at }, omit: { hash: true } });
        await tx.adminEvent.create({ data: event({ action: 'key.revoked', tenantId, keyId, detail: { name: key.name, prefix: key.prefix } }) });
        return revoked;
      }),
    );
  }

  findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return this.database.serialized((db) => db.apiKey.findUnique({ where: { hash }, omit: { hash: true } }));
  }

  findKey(keyId: string): Promise<ApiKeyRecord | null> {
    return this.database.serialized((db) => db.apiKey.findUnique({ where: { id: keyId }, omit: { hash: true } }));
  }

  touchKey(keyId: string, at: Date): Promise<void> {
    return this.database.serialized(async (db) => {
      await db.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: at } });
    });
  }

  /** The admin log, newest first, before the event `beforeId` when given. */
  listEvents(limit: number, beforeId?: number): Promise<AdminEvent[]> {
    return this.database.serialized((db) =>
      db.adminEvent.findMany({
        where: beforeId === undefined ? {} : { id: { lt: beforeId } },
        orderBy: { id: 'desc' },
        take: limit,
      }),
    );
  }
}

function event(input: AdminEventInput) {
  return { action: input.action, tenantId: input.tenantId, keyId: input.keyId ?? null, detail: JSON.stringify(input.detail) };
}
