import { Injectable } from '@nestjs/common';
import type { ApiKey, Tenant } from '../generated/prisma/client';
import { Database } from '../database/database.service';

export type ApiKeyRecord = Omit<ApiKey, 'hash'>;

/** Tenants and their API keys. Keys are looked up by hash; the key itself is never stored. */
@Injectable()
export class TenantRepository {
  constructor(private readonly database: Database) {}

  ensure(tenant: { id: string; slug: string; name: string }): Promise<void> {
    return this.database.serialized(async (db) => {
      await db.tenant.upsert({ where: { id: tenant.id }, create: tenant, update: {} });
    });
  }

  create(tenant: { id: string; slug: string; name: string }): Promise<Tenant> {
    return this.database.serialized((db) => db.tenant.create({ data: tenant }));
  }

  findBySlug(slug: string): Promise<Tenant | null> {
    return this.database.serialized((db) => db.tenant.findUnique({ where: { slug } }));
  }

  list(): Promise<(Tenant & { activeKeys: number })[]> {
    return this.database.serialized(async (db) => {
      const tenants = await db.tenant.findMany({
        orderBy: { createdAt: 'asc' },
        include: { _count: { select: { apiKeys: { where: { revokedAt: null } } } } },
      });
      return tenants.map(({ _count, ...tenant }) => ({ ...tenant, activeKeys: _count.apiKeys }));
    });
  }

  createKey(tenantId: string, key: { id: string; name: string; prefix: string; hash: string }): Promise<ApiKeyRecord> {
    return this.database.serialized((db) =>
      db.apiKey.create({ data: { ...key, tenantId }, omit: { hash: true } }),
    );
  }

  listKeys(tenantId: string): Promise<ApiKeyRecord[]> {
    return this.database.serialized((db) =>
      db.apiKey.findMany({ where: { tenantId }, orderBy: { createdAt: 'asc' }, omit: { hash: true } }),
    );
  }

  /** Marks a key revoked (idempotent); null when the tenant has no such key. */
  revokeKey(tenantId: string, keyId: string, at: Date): Promise<ApiKeyRecord | null> {
    return this.database.serialized(async (db) => {
      const key = await db.apiKey.findFirst({ where: { id: keyId, tenantId }, omit: { hash: true } });
      if (!key) return null;
      if (key.revokedAt) return key;
      return db.apiKey.update({ where: { id: keyId }, data: { revokedAt: at }, omit: { hash: true } });
    });
  }

  findKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
    return this.database.serialized((db) => db.apiKey.findUnique({ where: { hash }, omit: { hash: true } }));
  }

  touchKey(keyId: string, at: Date): Promise<void> {
    return this.database.serialized(async (db) => {
      await db.apiKey.update({ where: { id: keyId }, data: { lastUsedAt: at } });
    });
  }
}
