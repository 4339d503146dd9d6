import type { SqlConnection } from '../database/group-commit';

/*
 * The statements metrics run when they are scraped, on the direct connection: cheap reads, never per request.
 * Snapshotted with their query plans in queries/metrics-statements.sql by test/medium/sql-snapshots.spec.ts.
 */
export const METRICS_STATEMENTS = {
  /** Every tenant's active episodes: a range of the (status, updated_at) index, not a scan of the table. */
  countAllActiveEpisodes: `SELECT COUNT(*) AS n FROM episodes WHERE status = 'active'`,
};

export function countAllActiveEpisodes(sql: SqlConnection): number {
  return (sql.statement(METRICS_STATEMENTS.countAllActiveEpisodes).get() as { n: number }).n;
}
