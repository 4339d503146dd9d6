import { Injectable } from '@nestjs/common';
import { Database } from '../database/database.service';
import type { ToolSchemaVariant } from './tool-schemas';

export type ProtocolSessionKind = 'mcp' | 'openenv';

export interface ProtocolSessionRow {
  id: string;
  kind: ProtocolSessionKind;
  tenantId: string;
  keyId: string | null;
  variant: ToolSchemaVariant;
  boundEpisodeId: string | null;
  lastUsedMs: number;
}

/** A session to add: a row's fields, used for the first time at `at`. */
export type NewProtocolSession = Omit<ProtocolSessionRow, 'lastUsedMs'> & { at: Date };

/**
 * The `protocol_sessions` table (prisma/schema.prisma): the /mcp sessions every replica serves. Statements on the
 * direct face; the writes are group-committed, so on PostgreSQL they hold the write lock that every replica's
 * writes take (database/postgres-database.ts): counting a tenant's sessions and adding one is a single step for
 * the whole deployment, and MAX_SESSIONS_PER_TENANT holds however many replicas open sessions at once.
 */
@Injectable()
export class ProtocolSessionRepository {
  constructor(private readonly database: Database) {}

  find(id: string): Promise<ProtocolSessionRow | undefined> {
    return this.database.read((sql) =>
      sql.get<ProtocolSessionRow>(
        `SELECT id, kind, tenant_id AS "tenantId", key_id AS "keyId", variant, bound_episode_id AS "boundEpisodeId",
                epoch_ms(last_used_at) AS "lastUsedMs"
         FROM protocol_sessions WHERE id = ?`,
        [id],
      ),
    );
  }

  /** Adds the session unless the tenant already has `max` sessions used since `liveSince`; their count otherwise. */
  openWithin(session: NewProtocolSession, max: number, liveSince: Date): Promise<{ opened: true } | { opened: false; active: number }> {
    return this.database.batched(async (sql) => {
      const { n } = (await sql.get<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM protocol_sessions WHERE tenant_id = ? AND last_used_at >= ?', [
        session.tenantId,
        liveSince,
      ]))!;
      if (n >= max) return { opened: false, active: n };
      await sql.run(
        `INSERT INTO protocol_sessions (id, kind, tenant_id, key_id, variant, bound_episode_id, created_at, last_used_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [session.id, session.kind, session.tenantId, session.keyId, session.variant, session.boundEpisodeId, session.at, session.at],
      );
      return { opened: true };
    });
  }

  async bindEpisode(id: string, episodeId: string): Promise<void> {
    await this.database.batched((sql) => sql.run('UPDATE protocol_sessions SET bound_episode_id = ? WHERE id = ?', [episodeId, id]));
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.database.batched((sql) => sql.run('UPDATE protocol_sessions SET last_used_at = ? WHERE id = ? AND last_used_at < ?', [at, id, at]));
  }

  /** Whether there was such a session to end. */
  async end(id: string): Promise<boolean> {
    return (await this.database.batched((sql) => sql.run('DELETE FROM protocol_sessions WHERE id = ?', [id]))).changes > 0;
  }

  async endOfKey(keyId: string): Promise<number> {
    return (await this.database.batched((sql) => sql.run('DELETE FROM protocol_sessions WHERE key_id = ?', [keyId]))).changes;
  }

  async endIdle(before: Date): Promise<number> {
    return (await this.database.batched((sql) => sql.run('DELETE FROM protocol_sessions WHERE last_used_at < ?', [before]))).changes;
  }

  /** Those of `ids` that name a session used since `since`. */
  async liveAmong(ids: string[], since: Date): Promise<string[]> {
    const found: string[] = [];
    // A few hundred ids a statement at most, well within either database's limit on parameters.
    for (let at = 0; at < ids.length; at += 500) {
      const chunk = ids.slice(at, at + 500);
      const rows = await this.database.read((sql) =>
        sql.all<{ id: string }>(`SELECT id FROM protocol_sessions WHERE last_used_at >= ? AND id IN (${chunk.map(() => '?').join(', ')})`, [since, ...chunk]),
      );
      found.push(...rows.map((row) => row.id));
    }
    return found;
  }

  async countLive(since: Date): Promise<number> {
    return (await this.database.read((sql) => sql.get<{ n: number }>('SELECT CAST(COUNT(*) AS INTEGER) AS n FROM protocol_sessions WHERE last_used_at >= ?', [since])))!.n;
  }
}
