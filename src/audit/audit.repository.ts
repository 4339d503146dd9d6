import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';
import {
  ACTIVE_STATE,
  COMPONENT_COLUMN_NAMES,
  committedGapsDigest,
  countLedgerEntriesBetween,
  fromStoredLog,
  gapsDigest,
  selectLedgerEntriesOfEpisode,
  selectLedgerEntryAt,
  selectLedgerMacAt,
  selectLedgerPage,
  type LedgerEntry,
  type EpisodeLedger,
  type LedgerEntryInContext,
  type LedgerGap,
  type LedgerHole,
  withActiveState,
} from '../episodes';
import { storedJsonObject } from '../common/json';
import { Database } from '../database/database.service';
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

  /**
   * One page, newest first, strictly after `cursor`. The page is chosen by SQL (the same WHERE the statistics use,
   * listEpisodesSql, so a filter means the same on every audit route) and its rows read by Prisma.
   */
  async listEpisodes(scope: AuditScope, filters: EpisodeFilters, cursor: EpisodeCursor | null, take: number): Promise<EpisodeSummaryRow[]> {
    const page = listEpisodesSql(scope, filters, cursor, take);
    // The page's keys on the direct face (its statements are written for both databases), its rows through Prisma.
    const keys = await this.database.read((sql) => sql.all<{ serial: number }>(page.sql, page.params));
    if (keys.length === 0) return [];
    const serials = keys.map((k) => Number(k.serial));
    return this.database.serialized(async (db) => {
      const rows = await db.episode.findMany({ where: { serial: { in: serials } }, omit: { stateJson: true } });
      const bySerial = new Map(rows.map((row) => [row.serial, row]));
      return serials.flatMap((serial) => bySerial.get(serial) ?? []);
    });
  }

  /** The episodes with this id in the scope (ids are unique per tenant: across tenants there may be several). */
  findEpisodes(scope: AuditScope, episodeId: string, take: number): Promise<EpisodeWithSeal[]> {
    return this.database.serialized(async (db) => {
      const rows = await db.episode.findMany({
        where: { AND: [scopeWhere(scope), { id: episodeId }] },
        include: { legacySeal: true, tags: { select: { tag: true } }, ...ACTIVE_STATE },
        take,
      });
      return rows.map(withActiveState);
    });
  }

  /**
   * An episode's entries in its tenant ledger, in order, each with the MAC of the tenant's entry before it, and the
   * holes between them: entries of the tenant missing between two of the episode's, that no signed purge accounts for.
   */
  async ledgerOfEpisode(tenantId: string, episodeId: string): Promise<EpisodeLedger> {
    // Entries live in three places (a step's in its log row): read on the direct connection, which knows them all.
    const { entries, previous, short } = await this.database.read(async (sql) => {
      const entries = await selectLedgerEntriesOfEpisode(sql, tenantId, episodeId);
      const previous = new Map<number, string | undefined>();
      for (const e of entries) previous.set(e.seq, await selectLedgerMacAt(sql, tenantId, e.seq - 1));
      const short: Array<{ afterSeq: number; beforeSeq: number; present: number }> = [];
      for (const [i, e] of entries.slice(1).entries()) {
        const span = { afterSeq: entries[i].seq, beforeSeq: e.seq };
        const present = await countLedgerEntriesBetween(sql, tenantId, span.afterSeq, span.beforeSeq);
        if (present < span.beforeSeq - span.afterSeq - 1) short.push({ ...span, present });
      }
      return { entries, previous, short };
    });
    return this.database.serialized(async (db) => {
      // A gap (ledger-gaps.ts) counts only when the purge entry it names commits to it; that entry is returned, with
      // the MAC before it, for verify to check its MAC (the tenant's verify does too). A gap row nothing commits to
      // is ignored: what it claims to cover stays missing.
      const purges = new Map<number, LedgerEntryInContext | null>();
      const committed = async (gap: LedgerGap) => {
        if (!purges.has(gap.purgeSeq)) {
          const purge = await this.database.read((sql) => selectLedgerEntryAt(sql, tenantId, gap.purgeSeq));
          const ofPurge = await db.ledgerGap.findMany({ where: { tenantId, purgeSeq: gap.purgeSeq } });
          if (purge?.kind !== 'episodes.purged' || committedGapsDigest(purge.body) !== gapsDigest(ofPurge)) {
            purges.set(gap.purgeSeq, null);
          } else {
            // The entry before a purge may be one it removed: then its gap kept that entry's MAC.
            const before =
              (await this.database.read((sql) => selectLedgerMacAt(sql, tenantId, purge.seq - 1))) ??
              (await db.ledgerGap.findFirst({ where: { tenantId, lastSeq: purge.seq - 1 } }))?.lastMac ??
              null;
            purges.set(gap.purgeSeq, { ...purge, previousMac: before });
          }
        }
        return purges.get(gap.purgeSeq) !== null;
      };
      // An entry right after a purged stretch chains to the MAC the gap kept.
      const gapMacs = new Map<number, string>();
      for (const gap of await db.ledgerGap.findMany({ where: { tenantId, lastSeq: { in: entries.map((e) => e.seq - 1) } } })) {
        if (await committed(gap)) gapMacs.set(gap.lastSeq + 1, gap.lastMac);
      }
      const holes: LedgerHole[] = [];
      for (const span of short) {
        let purged = 0;
        for (const gap of await db.ledgerGap.findMany({ where: { tenantId, firstSeq: { gt: span.afterSeq }, lastSeq: { lt: span.beforeSeq } } })) {
          if (await committed(gap)) purged += gap.lastSeq - gap.firstSeq + 1;
        }
        const missing = span.beforeSeq - span.afterSeq - 1 - span.present - purged;
        if (missing > 0) holes.push({ afterSeq: span.afterSeq, beforeSeq: span.beforeSeq, missing });
      }
      const relied = [...purges.values()].filter((purge): purge is LedgerEntryInContext => purge !== null);
      return { entries: entries.map((e) => ({ ...e, previousMac: previous.get(e.seq) ?? gapMacs.get(e.seq) ?? null })), holes, purges: relied };
    });
  }

  /** A page of a tenant's ledger, in order, after entry `afterSeq`. */
  ledgerPage(tenantId: string, afterSeq: number, take: number): Promise<LedgerEntry[]> {
    return this.database.read((sql) => selectLedgerPage(sql, tenantId, afterSeq, take));
  }

  /** What retention purged in the scope: totals of the tenant ledgers' episodes.purged entries. */
  purgeTotals(scope: AuditScope): Promise<{ episodes: number; steps: number; purges: number; lastAt: Date | null }> {
    return this.database.serialized(async (db) => {
      // The ledger's purge entries, which are signed, rather than the admin log, which is not.
      const purges = await db.ledgerEntry.findMany({
        where: { kind: 'episodes.purged', ...(scope.kind === 'tenant' ? { tenantId: scope.tenantId } : {}) },
        select: { createdAt: true, body: true },
      });
      const totals = { episodes: 0, steps: 0, purges: purges.length, lastAt: null as Date | null };
      for (const purge of purges) {
        const body = storedJsonObject(purge.body);
        totals.episodes += typeof body.episodes === 'number' ? body.episodes : 0;
        totals.steps += typeof body.steps === 'number' ? body.steps : 0;
        if (totals.lastAt === null || purge.createdAt > totals.lastAt) totals.lastAt = purge.createdAt;
      }
      return totals;
    });
  }

  /** Every purged stretch of a tenant's ledger. */
  ledgerGaps(tenantId: string): Promise<LedgerGap[]> {
    return this.database.serialized((db) =>
      db.ledgerGap.findMany({ where: { tenantId }, orderBy: { firstSeq: 'asc' }, select: { firstSeq: true, lastSeq: true, lastMac: true, purgeSeq: true } }),
    );
  }

  /** The ids of every episode a tenant has. */
  episodeIdsOf(tenantId: string): Promise<string[]> {
    return this.database.serialized(async (db) => (await db.episode.findMany({ where: { tenantId }, select: { id: true } })).map((e) => e.id));
  }

  /** Action rows of several episodes at once (for the export, by their serials), in step order. */
  async actionsOf(episodeSerials: number[]): Promise<ActionRow[]> {
    const rows = await this.database.serialized((db) =>
      db.actionLog.findMany({
        where: { episodeSerial: { in: episodeSerials } },
        orderBy: [{ episodeSerial: 'asc' }, { stepIndex: 'asc' }],
        omit: { tenantSerial: true, ledgerSeq: true, ledgerMac: true, ledgerKeyId: true, ledgerStatus: true },
      }),
    );
    return rows.map(fromStoredLog);
  }

  /**
   * The score histogram per task (and optionally per agent), with counts of finished episodes and component
   * sums per bucket. Scores are integers from 0 to 1000, so a group has at most 1001 buckets whatever the number
   * of episodes, and means, medians and success rates follow exactly from it. The query reads only columns of
   * episodes_stats_covering_idx, so SQLite never touches the wide rows.
   */
  async scoreHistogram(scope: AuditScope, filters: EpisodeFilters, byAgent: boolean): Promise<ScoreBucket[]> {
    const query = scoreHistogramSql(scope, filters, byAgent);
    const components = Object.keys(COMPONENT_COLUMN_NAMES);
    const rows = await this.database.read((sql) => sql.all<Record<string, unknown>>(query.sql, query.params));
    return rows.map((row) => ({
        taskId: String(row.task_id),
        agent: row.agent === null ? null : String(row.agent),
        scoreMilli: Number(row.score_milli),
        count: Number(row.n),
        completed: Number(row.completed),
        componentSumsMilli: Object.fromEntries(components.map((name) => [name, Number(row[name])])) as ScoreBucket['componentSumsMilli'],
      }));
  }

  /** How many repeated test plays (REPEATED_TEST_PLAY) match, per task (and optionally per agent). */
  async repeatedTestPlayCounts(scope: AuditScope, filters: EpisodeFilters, byAgent: boolean): Promise<{ taskId: string; agent: string | null; count: number }[]> {
    const query = repeatedTestPlaysSql(scope, filters, byAgent);
    const rows = await this.database.read((sql) => sql.all<Record<string, unknown>>(query.sql, query.params));
    return rows.map((row) => ({ taskId: String(row.task_id), agent: row.agent === null ? null : String(row.agent), count: Number(row.n) }));
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
       SUM(CASE WHEN e.status IN ('resolved', 'out_of_steps') THEN 1 ELSE 0 END) AS completed,
       ${components.map(([name, column]) => `SUM(e.${column}) AS "${name}"`).join(', ')}
  FROM episodes e INDEXED BY episodes_stats_covering_idx
 WHERE ${clause}
 GROUP BY e.tenant_id, e.task_id, e.score_milli${byAgent ? ', e.agent' : ''}`;
  return { sql, params };
}

/**
 * A page of the listing (and of the export): the serials of the episodes after `cursor`, newest first. It walks an
 * index in (created_at, serial) order under the tenant (every index ends in the rowid, which is the serial) (snapshotted in queries/list-episodes.sql).
 */
export function listEpisodesSql(scope: AuditScope, filters: EpisodeFilters, cursor: EpisodeCursor | null, take: number): { sql: string; params: unknown[] } {
  const { clause, params } = sqlWhere(scope, filters);
  const after = cursor === null ? '' : ' AND (e.created_at < ? OR (e.created_at = ? AND e.serial < ?))';
  const cursorParams = cursor === null ? [] : [cursor.createdAt, cursor.createdAt, cursor.serial];
  const sql = `SELECT e.serial AS serial
  FROM episodes e
 WHERE ${clause}${after}
 ORDER BY e.created_at DESC, e.serial DESC
 LIMIT ?`;
  return { sql, params: [...params, ...cursorParams, take] };
}

/** The count of repeated test plays per task (and agent) for a scope and filters (snapshotted with the statistics). */
export function repeatedTestPlaysSql(scope: AuditScope, filters: EpisodeFilters, byAgent: boolean): { sql: string; params: unknown[] } {
  const { clause, params } = sqlWhere(scope, { ...filters, repeatedTestPlay: undefined });
  // Filtered to the episodes that are not repeated plays (repeated_test_play=false), the count is 0.
  const repeated = filters.repeatedTestPlay === false ? '1 = 0' : REPEATED_TEST_PLAY;
  const agent = byAgent ? 'e.agent' : 'NULL';
  const sql = `SELECT e.task_id AS task_id, ${agent} AS agent, COUNT(*) AS n
  FROM episodes e
 WHERE ${clause} AND ${repeated}
 GROUP BY e.task_id${byAgent ? ', e.agent' : ''}`;
  return { sql, params };
}

/**
 * Whether the episode `a` plays a test-split instance: a family's drawn instance (its task version names a
 * generator, as parseGeneratorVersion reads it: "g" and 1 to 6 digits, no leading 0; a canonical instance's is a
 * content hash) on a test seed (splitOf: divisible by 5). A spec holds this to instanceOf.
 */
export function testPlaySql(a: string): string {
  return `(${a}.seed % 5 = 0 AND ${generatedSql(a)})`;
}

/** Whether the episode `a` plays a drawn instance: its task version names a generator (parseGeneratorVersion). */
export function generatedSql(a: string): string {
  // Spelled in the functions SQLite and PostgreSQL share (neither has the other's GLOB or regular expressions).
  const v = `${a}.task_version`;
  return `(substr(${v}, 1, 1) = 'g' AND substr(${v}, 2, 1) IN ('1', '2', '3', '4', '5', '6', '7', '8', '9') AND length(${v}) <= 7 AND ltrim(substr(${v}, 2), '0123456789') = '')`;
}

/**
 * A repeated test play: a test-split episode of a tenant whose run cell the tenant had already played. A run records
 * itself in `agent` and `run_label` (an evaluation run's episodes: the run's agent and "<run_id>/trial-<t>"; POST
 * /baseline: its policy name and no label), and plays each of its cells, a task and a test seed,
 * once; so the first episode of a tenant with a given task, test seed, agent and run label is the one a run accounts
 * for, and every later one (in created_at, serial order) plays that instance again beyond it (docs/audit.md). A
 * private-split play of a seed draws another instance than its public play (or one under another private-split key),
 * so the key id is part of the cell: null for every public play.
 */
export const REPEATED_TEST_PLAY = `(${testPlaySql('e')} AND EXISTS (SELECT 1 FROM episodes p
   WHERE p.tenant_id = e.tenant_id AND p.task_id = e.task_id AND p.seed = e.seed AND p.agent IS NOT DISTINCT FROM e.agent
     AND p.run_label IS NOT DISTINCT FROM e.run_label AND p.split_key_id IS NOT DISTINCT FROM e.split_key_id AND (p.created_at < e.created_at OR (p.created_at = e.created_at AND p.serial < e.serial)) AND ${testPlaySql('p')}))`;

function scopeWhere(scope: AuditScope): Prisma.EpisodeWhereInput & Prisma.ActionLogWhereInput {
  return scope.kind === 'tenant' ? { tenantId: scope.tenantId } : {};
}

/** The scope and filters as parameterized SQL: the one WHERE of the listing, the export and the statistics. */
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
  if (f.variant !== undefined) parts.push(f.variant === 'generated' ? generatedSql('e') : `NOT ${generatedSql('e')}`);
  // splitOf: a test seed is divisible by 5; only drawn instances are in a split.
  if (f.split !== undefined) parts.push(`(${generatedSql('e')} AND e.seed % 5 ${f.split === 'test' ? '=' : '<>'} 0)`);
  if (f.feedback !== undefined) add('e.feedback = ?', f.feedback);
  if (f.runId !== undefined) add('e.run_id = ?', f.runId);
  if (f.tag !== undefined) {
    add('EXISTS (SELECT 1 FROM episode_tags t WHERE t.episode_id = e.id AND t.tenant_id = e.tenant_id AND t.tag = ?)', f.tag);
  }
  if (f.createdAfter) add('e.created_at >= ?', f.createdAfter);
  if (f.createdBefore) add('e.created_at < ?', f.createdBefore);
  if (f.minScoreMilli !== undefined) add('e.score_milli >= ?', f.minScoreMilli);
  if (f.maxScoreMilli !== undefined) add('e.score_milli <= ?', f.maxScoreMilli);
  if (f.repeatedTestPlay !== undefined) parts.push(f.repeatedTestPlay ? REPEATED_TEST_PLAY : `NOT ${REPEATED_TEST_PLAY}`);
  return { clause: parts.join(' AND '), params };
}
