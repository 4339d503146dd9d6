import request from 'supertest';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';
/** A chain key for servers started with REQUIRE_API_KEY=true (which refuse to start without one). */
export const CHAIN_KEY = 'test-chain-key-0123456789abcdef0123456789';

export const asAdmin = { Authorization: `Bearer ${ADMIN_KEY}` };

export function bearer(key: string) {
  return { Authorization: `Bearer ${key}` };
}

/** Issues a key of a tenant through the admin API; returns the key and its id. */
export async function issueKey(http: any, slug: string, scope: 'agent' | 'reader' = 'agent'): Promise<{ key: string; keyId: string }> {
  const issued = (await request(http).post(`/admin/tenants/${slug}/keys`).set(asAdmin).send({ name: `test-${scope}`, scope }).expect(200)).body;
  return { key: issued.key, keyId: issued.id };
}

/**
 * Creates a tenant with an agent key (runs episodes, reads its own) and a reader key (reads the tenant's audits);
 * `key` is the agent key.
 */
export async function tenantWithKey(http: any, slug: string): Promise<{ key: string; keyId: string; readerKey: string; tenantId: string }> {
  const tenant = (await request(http).post('/admin/tenants').set(asAdmin).send({ slug, name: slug }).expect(200)).body;
  const agent = await issueKey(http, slug, 'agent');
  const reader = await issueKey(http, slug, 'reader');
  return { key: agent.key, keyId: agent.keyId, readerKey: reader.key, tenantId: tenant.id };
}
