import type { SqlConnection } from '../../src/database/sql-connection';

/*
 * A PostgreSQL database is in use while another client is connected to it: a server (each process holds a pool),
 * a psql, a monitoring agent. PostgreSQL's own workers (autovacuum, walsender) are not clients and are left out.
 * Checked before a restore changes anything, and again as the first statement of the restore's transaction (so a
 * server that connected in between makes it fail, and roll back, rather than be pulled out from under).
 */

/** The other client sessions on the current database, as `pg_stat_activity` lists them. */
export const OTHER_SESSIONS = `SELECT pid, usename AS "user", application_name AS "application", client_addr::text AS "address"
  FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;

export interface Session {
  pid: number;
  user: string | null;
  application: string | null;
  address: string | null;
}

export async function otherSessions(sql: SqlConnection): Promise<Session[]> {
  return sql.all<Session>(`${OTHER_SESSIONS} ORDER BY pid`);
}

/** "3 other sessions (pid 812 supportdesk@10.0.0.4 'supportdesk', …)", for the refusal. */
export function describeSessions(sessions: Session[]): string {
  const shown = sessions.slice(0, 5).map((s) => `pid ${s.pid} ${s.user ?? '?'}@${s.address ?? 'local socket'}${s.application ? ` '${s.application}'` : ''}`);
  return `${sessions.length} other session(s) (${shown.join(', ')}${sessions.length > shown.length ? ', …' : ''})`;
}

/** The same check inside the restore's transaction: fails it when another client is connected by then. */
export const REFUSE_IF_IN_USE = `DO $$
BEGIN
  IF EXISTS (${OTHER_SESSIONS}) THEN
    RAISE EXCEPTION 'supportdesk restore: another client connected to the database while the restore began; nothing was changed';
  END IF;
END
$$;`;
