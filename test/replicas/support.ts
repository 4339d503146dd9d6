import { migratePostgres } from '../../src/database/postgres-migrate';
import { startTopology, type Topology } from '../../tools/replicas/topology';
import { scratchDatabase, type ScratchDatabase } from '../support/postgres';
import { ADMIN_KEY, CHAIN_KEY } from '../support/tenants';

/** An answer, and which replica gave it (HAProxy's X-SupportDesk-Replica header; null when it came from no replica). */
export interface Answer {
  status: number;
  body: any;
  replica: string | null;
}

export async function call(base: string, method: string, path: string, options: { key?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...(options.key ? { authorization: `Bearer ${options.key}` } : {}) };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: response.status, body, replica: response.headers.get('x-supportdesk-replica') };
}

export const asAdmin = { key: ADMIN_KEY };

/** A tenant with an agent key, made through `base`. */
export async function tenantWithKey(base: string, slug: string): Promise<{ key: string; keyId: string }> {
  const created = await call(base, 'POST', '/admin/tenants', { ...asAdmin, body: { slug, name: slug } });
  if (created.status !== 200) throw new Error(`creating tenant ${slug}: ${created.status} ${JSON.stringify(created.body)}`);
  const issued = await call(base, 'POST', `/admin/tenants/${slug}/keys`, { ...asAdmin, body: { name: 'agent', scope: 'agent' } });
  if (issued.status !== 200) throw new Error(`issuing a key for ${slug}: ${issued.status} ${JSON.stringify(issued.body)}`);
  return { key: issued.body.key, keyId: issued.body.id };
}

/** A fresh database and `count` replicas on it behind HAProxy, with these settings on every replica. */
export async function replicasOnFreshDatabase(label: string, count: number, env: Record<string, string> = {}): Promise<{ topology: Topology; db: ScratchDatabase }> {
  const db = await scratchDatabase(label);
  await migratePostgres({ connectionString: db.url });
  const topology = await startTopology(count, {
    DATABASE_URL: db.url,
    ADMIN_API_KEY: ADMIN_KEY,
    CHAIN_KEY,
    REQUIRE_API_KEY: 'true',
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_ACTIVE_EPISODES_PER_TENANT: '0',
    LEDGER_CHECKPOINT_FILE: `/tmp/${label}-${process.pid}.ledger-checkpoints`,
    ...env,
  });
  return { topology, db };
}
