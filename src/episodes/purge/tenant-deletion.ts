import { NotFoundError } from '../../common/errors/domain-errors';
import type { SqlConnection } from '../../database/sql-connection';
import { selectLedgerHead } from '../ledger/ledger-rows';
import { deleteEpisodesWithTheirRows } from './episode-purge';
import { PURGE_STATEMENTS, TENANT_DELETION_STATEMENTS } from './purge-statements';

/*
 * A tenant's deletion, in three kinds of write so that no single one holds the database for long (one write for a
 * tenant of 50,000 ten-step episodes took 3.3 s here, every other tenant's steps waiting behind it; a batch of 200
 * takes about 60 ms):
 *   1. begin: the tenant is marked deleting and its keys revoked, so nothing new is written for it; the admin log
 *      records what is about to go;
 *   2. a batch of its episodes with all their rows, per write, as many writes as it takes;
 *   3. finish: what is left (runs, gaps, tenant-level ledger entries, keys) and the tenant row; the admin log records it.
 * Each write is a group-commit batch of its own, with other tenants' steps between them. A deletion cut short (a
 * crash) leaves the tenant marked, and is finished at the next start.
 */

/** What a tenant's deletion removes, as the admin log records it. */
export interface TenantDeletionRecord {
  episodes: number;
  steps: number;
  keys: number;
  runs: number;
  /** Where the tenant's ledger ended: its last seq and MAC (null: it had none), so an old checkpoint can be matched. */
  ledgerHead: { seq: number; mac: string } | null;
}

/**
 * Marks the tenant deleting and revokes its keys; returns what the deletion will remove (`resumed`: a deletion cut
 * short, already marked, and what is left of it).
 */
export async function beginTenantDeletion(sql: SqlConnection, tenantId: string, slug: string, at: Date, resumed: boolean): Promise<TenantDeletionRecord> {
  // Another request began it first (both found the tenant before either wrote): that one carries it through.
  const marked = (await sql.run(PURGE_STATEMENTS.markTenantDeleting, [at, tenantId])).changes === 1;
  if (!marked && !resumed) throw new NotFoundError(`no tenant "${slug}": its deletion has already begun`);
  const counts = (await sql.get(PURGE_STATEMENTS.countTenantRows, { tenant: tenantId })) as Omit<TenantDeletionRecord, 'ledgerHead'>;
  const ledgerHead = (await selectLedgerHead(sql, tenantId)) ?? null;
  await sql.run(PURGE_STATEMENTS.revokeTenantKeys, [at, tenantId]);
  const detail = { slug, ...counts, ledger_head: ledgerHead };
  const action = resumed ? 'tenant.deletion_resumed' : 'tenant.deletion_started';
  await sql.run(PURGE_STATEMENTS.insertAdminEvent, [at, action, tenantId, JSON.stringify(detail)]);
  return { ...counts, ledgerHead };
}

/** Deletes up to `limit` of the tenant's episodes with everything stored about them; returns how many. */
export async function deleteTenantEpisodes(sql: SqlConnection, tenantId: string, limit: number): Promise<number> {
  const ids = ((await sql.all(PURGE_STATEMENTS.selectTenantEpisodeIds, [tenantId, limit])) as Array<{ id: string }>).map((r) => r.id);
  await deleteEpisodesWithTheirRows(sql, tenantId, ids, 'tenant-deleted');
  return ids.length;
}

/** Removes what is left of the tenant, and the tenant row, once its episodes are gone; records the deletion. */
export async function finishTenantDeletion(sql: SqlConnection, tenantId: string, slug: string, record: TenantDeletionRecord, at: Date): Promise<void> {
  await sql.run(PURGE_STATEMENTS.openGuard, ['tenant-deleted']);
  for (const statement of Object.values(TENANT_DELETION_STATEMENTS)) await sql.run(statement, [tenantId]);
  await sql.run(PURGE_STATEMENTS.closeGuard);
  const detail = { slug, episodes: record.episodes, steps: record.steps, keys: record.keys, runs: record.runs, ledger_head: record.ledgerHead };
  await sql.run(PURGE_STATEMENTS.insertAdminEvent, [at, 'tenant.deleted', tenantId, JSON.stringify(detail)]);
}
