import type { SqlConnection } from '../database/sql-connection';

/*
 * The statements metrics run when they are scraped, on the direct connection: cheap reads, never per request.
 * Snapshotted with their query plans in queries/metrics-statements.sql by test/medium/sql-snapshots.spec.ts.
 */
export const METRICS_STATEMENTS = {
  /** Every tenant's active episodes: a range of the (status, updated_at) index, not a scan of the table. */
  countAllActiveEpisodes: `SELECT COUNT(*) AS n FROM episodes WHERE status = 'active'`,
};

export async function countAllActiveEpisodes(sql: SqlConnection): Promise<number> {
  return (await sql.get<{ n: number }>(METRICS_STATEMENTS.countAllActiveEpisodes))!.n;
}
