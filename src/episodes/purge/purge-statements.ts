import { episodeSerial, tenantSerial } from '../log-columns';

/*
 * The statements of a purge (retention, tenant deletion), on the direct connection inside one group-commit batch,
 * snapshotted in queries/purge-statements.sql. The append-only triggers admit deletes only while purge_guard holds
 * a row; the purge inserts it first and removes it last, inside its own transaction, so nothing else can delete.
 */
export const PURGE_STATEMENTS = {
  openGuard: `INSERT INTO purge_guard (id, reason) VALUES (1, ?)`,
  closeGuard: `DELETE FROM purge_guard`,
  selectExpiredEpisodes: `SELECT id FROM episodes WHERE status IN ('resolved', 'out_of_steps', 'expired') AND updated_at < ? AND tenant_id = ? LIMIT ?`,
  selectEpisodeForPurge: `SELECT id, chain_head AS "chainHead", step_count AS "stepCount", created_at AS "createdAt" FROM episodes WHERE id = ? AND tenant_id = ? AND status != 'active'`,
  countActionRows: `SELECT COUNT(*) AS n FROM action_log WHERE episode_serial = ${episodeSerial()}`,
  deleteStepRequests: `DELETE FROM step_requests WHERE episode_id = ? AND tenant_id = ?`,
  deleteEpisodeTags: `DELETE FROM episode_tags WHERE episode_id = ? AND tenant_id = ?`,
  deleteLegacySeal: `DELETE FROM legacy_chain_seals WHERE episode_id = ? AND tenant_id = ?`,
  deleteActionRows: `DELETE FROM action_log WHERE episode_serial = ${episodeSerial()}`,
  deleteLedgerEntriesOfEpisode: `DELETE FROM ledger_entries WHERE tenant_id = ? AND episode_id = ?`,
  deleteActiveState: `DELETE FROM active_states WHERE episode_serial = ${episodeSerial()}`,
  deleteEpisode: `DELETE FROM episodes WHERE id = ? AND tenant_id = ?`,
  insertLedgerGap: `INSERT INTO ledger_gaps (tenant_id, first_seq, last_seq, last_mac, purge_seq) VALUES (?, ?, ?, ?, ?)`,
  countTenantRows: `SELECT (SELECT COUNT(*) FROM episodes WHERE tenant_id = @tenant) AS episodes, (SELECT COUNT(*) FROM action_log WHERE tenant_serial = ${tenantSerial('@tenant')}) AS steps,
  (SELECT COUNT(*) FROM api_keys WHERE tenant_id = @tenant) AS keys, (SELECT COUNT(*) FROM runs WHERE tenant_id = @tenant) AS runs`,
  updateRetention: `UPDATE tenants SET retention_days = ? WHERE id = ?`,
  markTenantDeleting: `UPDATE tenants SET deleting_at = ? WHERE id = ? AND deleting_at IS NULL`,
  revokeTenantKeys: `UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ? AND revoked_at IS NULL`,
  selectTenantEpisodeIds: `SELECT id FROM episodes WHERE tenant_id = ? LIMIT ?`,
  insertAdminEvent: `INSERT INTO admin_events (at, action, tenant_id, key_id, detail) VALUES (?, ?, ?, NULL, ?)`,
} as const;

/**
 * What the last write of a tenant's deletion removes, children before parents (the foreign keys), the tenant row
 * last; its episodes are gone by then, a batch per write (tenant-deletion.ts), so these are small.
 */
const TENANT_TABLES = [
  'active_states',
  'step_requests',
  'episode_tags',
  'legacy_chain_seals',
  'action_log',
  'ledger_entries',
  'ledger_gaps',
  'run_regrade_results',
  'run_regrades',
  'run_cells',
  'runs',
  'episodes',
  'api_keys',
] as const;

export const TENANT_DELETION_STATEMENTS: Record<string, string> = {
  ...Object.fromEntries(TENANT_TABLES.map((table) => [`delete_${table}`, `DELETE FROM ${table} WHERE tenant_id = ?`])),
  // The log names its tenant by serial (log-columns.ts), and a running episode's state its episode.
  delete_action_log: `DELETE FROM action_log WHERE tenant_serial = ${tenantSerial()}`,
  delete_active_states: `DELETE FROM active_states WHERE episode_serial IN (SELECT serial FROM episodes WHERE tenant_id = ?)`,
  deleteTenant: `DELETE FROM tenants WHERE id = ?`,
};
