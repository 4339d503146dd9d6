import request from 'supertest';

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef';

export const asAdmin = { Authorization: `Bearer ${ADMIN_KEY}` };

export function bearer(key: string) {
  return { Authorization: `Bearer ${key}` };
}

/** Creates a tenant and issues it a key through the admin API; returns the key and its id. */
export async function tenantWithKey(http: any, slug: string): Promise<{ key: string; keyId: string; tenantId: string }> {
  const tenant = (await request(http).post('/admin/tenants').set(asAdmin).send({ slug, name: slug }).expect(200)).body;
  const key = (await request(http).post(`/admin/tenants/${slug}/keys`).set(asAdmin).send({ name: 'test' }).expect(200)).body;
  return { key: key.key, keyId: key.id, tenantId: tenant.id };
}
