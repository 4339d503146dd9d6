import { Injectable } from '@nestjs/common';
import type { ActionLog, Episode, Prisma } from '../generated/prisma/client';
import { COMPONENT_COLUMN_NAMES } from '../episodes/action-chain';
import { PrismaService } from '../prisma/prisma.service';
import type { AuditScope, EpisodeCursor, EpisodeFilters } from './audit-scope';

export type EpisodeRow = Omit<Episode, 'stateJson'>;
export type ActionRow = Omit<ActionLog, 'id' | 'tenantId'>;

export interface StatsRow {
  taskId: string;
  agent: string | null;
  count: number;
  completed: number;
  successes: number;
  meanMilli: number;
  medianMilli: number;
  componentMeansMilli: Record<keyof typeof COMPONENT_COLUMN_NAMES, number>;
}

/** Audit reads. The scope comes first in every method and is part of every query. */
@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** One page, newest first, strictly after `cursor`. */
  listEpisodes(scope: AuditScope, filters: EpisodeFilters, cursor: EpisodeCursor | null, take: number): Promise<EpisodeRow[]> {
    const where: Prisma.EpisodeWhereInput = { AND: [scopeWhere(scope), filterWhere(filters), cursorWhere(cursor)] };
    return this.prisma.serialized((db) =>
      db.episode.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take, omit: { stateJson: true } }),
    );
  }

  findEpisode(scope: AuditScope, episodeId: string): Promise<Episode | null> {
    return this.prisma.serialized((db) => db.episode.findFirst({ where: { AND: [scopeWhere(scope), { id: episodeId }] } }));
  }

  /** Action rows of several episodes at once (for the export), in step order. */
  actionsOf(scope: AuditScope, episodeIds: string[]): Promise<ActionRow[]> {
    return this.prisma.serialized((db) =>
      db.actionLog.findMany({
        where: { AND: [scopeWhere(scope), { episodeId: { in: episodeIds } }] },
        orderBy: [{ episodeId: 'asc' }, { stepIndex: 'asc' }],
        omit: { id: true, tenantId: true },
      }),
    );
  }

  /**
   * Per task (and optionally per agent): counts, mean and median score, successes at a threshold and mean
   * component scores, in one SQL pass. Median uses window functions so nothing but the result leaves SQLite.
   */
  stats(scope: AuditScope, filters: EpisodeFilters, thresholdMilli: number, byAgent: boolean): Promise<StatsRow[]> {
    const { clause, params } = sqlWhere(scope, filters);
    const partition = byAgent ? 'e.task_id, e.agent' : 'e.task_id';
    const components = Object.entries(COMPONENT_COLUMN_NAMES);
    const sql = `
      WITH f AS (
        SELECT e.task_id, ${byAgent ? 'e.agent' : 'NULL'} AS agent, e.status, e.score_milli,
               ${components.map(([, column]) => `e.${column}`).join(', ')},
               ROW_NUMBER() OVER (PARTITION BY ${partition} ORDER BY e.score_milli) AS rn,
               COUNT(*) OVER (PARTITION BY ${partition}) AS cnt
        FROM episodes e
        WHERE ${clause}
      )
      SELECT task_id, agent, COUNT(*) AS n,
             SUM(status <> 'active') AS completed,
             SUM(score_milli >= ?) AS successes,
             AVG(score_milli) AS mean_milli,
             AVG(CASE WHEN rn IN ((cnt + 1) / 2, (cnt + 2) / 2) THEN score_milli END) AS median_milli,
             ${components.map(([name, column]) => `AVG(${column}) AS "${name}"`).join(', ')}
      FROM f
      GROUP BY task_id, agent
      ORDER BY task_id, agent`;
    return this.prisma.serialized(async (db) => {
      const rows = await db.$queryRawUnsafe<Record<string, unknown>[]>(sql, ...params, thresholdMilli);
      return rows.map((row) => ({
        taskId: String(row.task_id),
        agent: row.agent === null ? null : String(row.agent),
        count: Number(row.n),
        completed: Number(row.completed),
        successes: Number(row.successes),
        meanMilli: Number(row.mean_milli),
        medianMilli: Number(row.median_milli),
        componentMeansMilli: Object.fromEntries(components.map(([name]) => [name, Number(row[name])])) as StatsRow['componentMeansMilli'],
      }));
    });
  }
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
  if (f.createdAfter) add('e.created_at >= ?', storedTimestamp(f.createdAfter));
  if (f.createdBefore) add('e.created_at < ?', storedTimestamp(f.createdBefore));
  if (f.minScoreMilli !== undefined) add('e.score_milli >= ?', f.minScoreMilli);
  if (f.maxScoreMilli !== undefined) add('e.score_milli <= ?', f.maxScoreMilli);
  return { clause: parts.join(' AND '), params };
}

/**
 * Prisma's SQLite adapter stores DateTime as ISO-8601 text with a "+00:00" offset ("2026-11-29T13:03:49.714+00:00"),
 * which sorts chronologically as text; comparisons must use exactly that form.
 */
export function storedTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}
