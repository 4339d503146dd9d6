import { Injectable } from '@nestjs/common';
import type { LedgerEntry as PrismaLedgerEntry, Prisma } from '../generated/prisma/client';
import { COMPONENT_COLUMN_NAMES, type LedgerEntry, type LedgerEntryInContext } from '../episodes';
import { Database } from '../database/database.service';
import { sqliteTimestamp } from '../database/sqlite-timestamp';
import type { AuditScope, EpisodeCursor, EpisodeFilters } from './audit-scope';
import type { ActionRow, EpisodeSummaryRow, EpisodeWithSeal } from './audit-rows';


/** One bucket of the score histogram: the episodes of a group that scored exactly `scoreMilli`. */
export interface ScoreBucket {
  taskId: string;
  agent: string | null;
  scoreMilli: number;
  count: number;
  completed: number;
  componentSumsMilli: Record<keyof typeof COMPONENT_COLUMN_NAMES, number>;
}

/** Audit reads. The scope comes first in every method and is part of every query. */
@Injectable()
export class AuditRepository {
  constructor(private readonly database: Database) {}

  /** One page, newest first, strictly after `cursor`. */
  listEpisodes(scope: AuditScope, filters: EpisodeFilters, cursor: EpisodeCursor | null, take: number): Promise<EpisodeSummaryRow[]> {
    const where: Prisma.EpisodeWhereInput = { AND: [scopeWhere(scope), filterWhere(filters), cursorWhere(cursor)] };
    return this.database.serialized((db) =>
      db.episode.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take, omit: { stateJson: true } }),
    );
  }

  /** The episodes with this id in the scope (ids are unique per tenant: across tenants there may be several). */
  findEpisodes(scope: AuditScope, episodeId: string, take: number): Promise<EpisodeWithSeal[]> {
    return this.database.serialized((db) =>
      db.episode.findMany({ where: { AND: [scopeWhere(scope), { id: episodeId }] }, include: { legacySeal: true, tags: { select: { tag: true } } }, take }),
    );
  }

  /** An episode's entries in its tenant ledger, in order, each with the MAC of the tenant's entry before it. */
  ledgerOfEpisode(tenantId: string, episodeId: string): Promise<LedgerEntryInContext[]> {
    return this.database.serialized(async (db) => {
      const entries = await db.ledgerEntry.findMany({ where: { tenantId, episodeId }, orderBy: { seq: 'asc' } });
      const previous = await db.ledgerEntry.findMany({ where: { tenantId, seq: { in: entries.map((e) => e.seq - 1) } }, select: { seq: true, mac: true } });
      const macBefore = new Map(previous.map((p) => [p.seq + 1, p.mac]));
      return entries.map((e) => ({ ...asLedgerEntry(e), previousMac: macBefore.get(e.seq) ?? null }));
    });
  }

  /** A page of a tenant's ledger, in order, after entry `afterSeq`. */
  ledgerPage(tenantId: string, afterSeq: number, take: number): Promise<LedgerEntry[]> {
    return this.database.serialized(async (db) =>
      (await db.ledgerEntry.findMany({ where: { tenantId, seq: { gt: afterSeq } }, orderBy: { seq: 'asc' }, take })).map(asLedgerEntry),
    );
  }

  /** The ids of every episode a tenant has. */
  episodeIdsOf(tenantId: string): Promise<string[]> {
    return this.database.serialized(async (db) => (await db.episode.findMany({ where: { tenantId }, select: { id: true } })).map((e) => e.id));
  }

  /** Action rows of several episodes at once (for the export), in step order. */
  actionsOf(scope: AuditScope, episodeIds: string[]): Promise<ActionRow[]> {
    return this.database.serialized((db) =>
      db.actionLog.findMany({
        where: { AND: [scopeWhere(scope), { episodeId: { in: episodeIds } }] },
        orderBy: [{ episodeId: 'asc' }, { stepIndex: 'asc' }],
        omit: { id: true, tenantId: true },
      }),
    );
  }

  /**
   * The score histogram per task (and optionally per agent), with counts of finished episodes and component
   * sums per bucket. Scores are integers from 0 to 1000, so a group has at most 1001 buckets whatever the number
   * of episodes, and means, medians and success rates follow exactly from it. The query reads only columns of
   * episodes_stats_covering_idx, so SQLite never touches the wide rows.
   */
  scoreHistogram(scope: AuditScope, filters: EpisodeFilters, byAgent: boolean): Promise<ScoreBucket[]> {
    const { sql, params } = scoreHistogramSql(scope, filters, byAgent);
    const components = Object.keys(COMPONENT_COLUMN_NAMES);
    return this.database.serialized(async (db) => {
      const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params);
      return rows.map((row) => ({
        taskId: String(row.task_id),
        agent: row.agent === null ? null : String(row.agent),
        scoreMilli: Number(row.score_milli),
        count: Number(row.n),
        completed: Number(row.completed),
        componentSumsMilli: Object.fromEntries(components.map((name) => [name, Number(row[name])])) as ScoreBucket['componentSumsMilli'],
      }));
    });
  }
}

/**
 * The statistics query for a scope and filters (snapshotted in queries/score-histogram.sql). Grouped by a prefix
 * of the covering index's own order (tenant, task, score[, agent]), so SQLite aggregates while it walks the index
 * with no sort, even across tenants; tenants are merged afterwards.
 */
export function scoreHistogramSql(scope: AuditScope, filters: EpisodeFilters, byAgent: boolean): { sql: string; params: unknown[] } {
  const { clause, params } = sqlWhere(scope, filters);
  const components = Object.entries(COMPONENT_COLUMN_NAMES);
  const agent = byAgent ? 'e.agent' : 'NULL';
  const sql = `SELECT e.task_id AS task_id, ${agent} AS agent, e.score_milli AS score_milli, COUNT(*) AS n,
       SUM(e.status IN ('resolved', 'out_of_steps')) AS completed,
       ${components.map(([name, column]) => `SUM(e.${column}) AS "${name}"`).join(', ')}
  FROM episodes e INDEXED BY episodes_stats_covering_idx
 WHERE ${clause}
 GROUP BY e.tenant_id, e.task_id, e.score_milli${byAgent ? ', e.agent' : ''}`;
  return { sql, params };
}

function scopeWhere(scope: AuditScope): Prisma.EpisodeWhereInput & Prisma.ActionLogWhereInput {
  return scope.kind === 'tenant' ? { tenantId: scope.tenantId } : {};
}

function filterWhere(f: EpisodeFilters): Prisma.EpisodeWhereInput {
  return {
    ...(f.taskId !== undefined && { taskId: f.taskId }),
    ...(f.status !== undefined && { status: f.status }),
    ...(f.agent !== undefined && { agent: f.agent }),
    ...(f.runLabel !== undefined && { runLabel: f.runLabel }),
    ...(f.tag !== undefined && { tags: { some: { tag: f.tag } } }),
    ...((f.createdAfter || f.createdBefore) && {
      createdAt: { ...(f.createdAfter && { gte: f.createdAfter }), ...(f.createdBefore && { lt: f.createdBefore }) },
    }),
    ...((f.minScoreMilli !== undefined || f.maxScoreMilli !== undefined) && {
      scoreMilli: {
        ...(f.minScoreMilli !== undefined && { gte: f.minScoreMilli }),
        ...(f.maxScoreMilli !== undefined && { lte: f.maxScoreMilli }),
      },
    }),
  };
}

function cursorWhere(cursor: EpisodeCursor | null): Prisma.EpisodeWhereInput {
  if (!cursor) return {};
  return {
    OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }],
  };
}

/** The same scope and filters as parameterized SQL, for the statistics query. */
function sqlWhere(scope: AuditScope, f: EpisodeFilters): { clause: string; params: unknown[] } {
  const parts: string[] = ['1 = 1'];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    parts.push(sql);
    params.push(value);
  };
  if (scope.kind === 'tenant') add('e.tenant_id = ?', scope.tenantId);
  if (f.taskId !== undefined) add('e.task_id = ?', f.taskId);
  if (f.status !== undefined) add('e.status = ?', f.status);
  if (f.agent !== undefined) add('e.agent = ?', f.agent);
  if (f.runLabel !== undefined) add('e.run_label = ?', f.runLabel);
  if (f.tag !== undefined) {
    add('EXISTS (SELECT 1 FROM episode_tags t WHERE t.episode_id = e.id AND t.tenant_id = e.tenant_id AND t.tag = ?)', f.tag);
  }
  if (f.createdAfter) add('e.created_at >= ?', sqliteTimestamp(f.createdAfter));
  if (f.createdBefore) add('e.created_at < ?', sqliteTimestamp(f.createdBefore));
  if (f.minScoreMilli !== undefined) add('e.score_milli >= ?', f.minScoreMilli);
  if (f.maxScoreMilli !== undefined) add('e.score_milli <= ?', f.maxScoreMilli);
  return { clause: parts.join(' AND '), params };
}

function asLedgerEntry(row: PrismaLedgerEntry): LedgerEntry {
  return { ...row, kind: row.kind as LedgerEntry['kind'] };
}
