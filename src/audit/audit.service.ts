import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ConflictError, ForbiddenError, NotFoundError } from '../common/errors/domain-errors';
import { parseDateTime } from '../common/field-rules';
import { grade } from '../engine/grader';
import type { Task } from '../engine/task.schema';
import { privateSplitKeyIdOf } from '../tasks/private-split';
import { TaskCatalog } from '../tasks/task-catalog.service';
import { TenantsService } from '../tenants/tenants.service';
import type { AuditScope, EpisodeFilters } from './audit-scope';
import type { EpisodeSummaryRow } from './audit-rows';
import { generatorVersionId, parseGeneratorVersion } from '../families';
import { AuditRepository } from './audit.repository';
import type {
  EpisodeActionsDto,
  EpisodeDetailDto,
  EpisodePageDto,
  EpisodeSummaryDto,
  RescoreReportDto,
  StatsDto,
  VerifyReportDto,
} from './dto/audit-responses.dto';
import type { EpisodeFiltersDto, ListEpisodesQueryDto, StatsQueryDto } from './dto/episode-filters.dto';
import { decodeEpisodeCursor, encodeEpisodeCursor, EARLIEST_STORED_TIME, LATEST_STORED_TIME } from './episode-cursor';
import { EpisodeVerifier } from './episode-verifier';
import { summarizeHistogram } from './score-stats';
import { instanceOf, presentActionLog, presentComponents, presentPenalties, presentReplyDetails, SNAPSHOT_DROPPED, stateOf, toPoints, type EpisodeRowStatus } from '../episodes';
import type { Action } from '../engine/actions';
import { replayUnder } from './replay';
import { episodeStep } from './step-view';
import type { EpisodeStepDto } from './dto/episode-step.dto';

const EXPORT_PAGE_SIZE = 200;

@Injectable()
export class AuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly tenants: TenantsService,
    private readonly verifier: EpisodeVerifier,
    private readonly catalog: TaskCatalog,
  ) {}

  async list(principal: Principal, query: ListEpisodesQueryDto): Promise<EpisodePageDto> {
    const scope = await this.scopeOf(principal, query.tenant);
    const limit = query.limit ?? 50;
    const cursor = query.cursor === undefined ? null : decodeEpisodeCursor(query.cursor);
    const rows = await this.audit.listEpisodes(scope, toFilters(query), cursor, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(presentSummary),
      next_cursor: rows.length > limit && last ? encodeEpisodeCursor({ createdAt: last.createdAt, serial: last.serial }) : null,
    };
  }

  async get(principal: Principal, episodeId: string, tenantSlug?: string): Promise<EpisodeDetailDto> {
    const episode = await this.require(principal, episodeId, tenantSlug);
    const task = await this.catalog.fetchInstance(episode.taskId, episode.taskVersion, episode.seed, privateSplitKeyIdOf(episode));
    // A finished episode's state is replayed from its log (it keeps no snapshot): read the log only then.
    const logged = episode.stateJson === SNAPSHOT_DROPPED ? await this.audit.actionsOf([episode.serial]) : [];
    const breakdown = grade(task, stateOf(task, episode, () => logged.map((row) => row.actionJson)));
    return { ...presentSummary(episode), components: presentComponents(breakdown), penalties: presentPenalties(breakdown) };
  }

  async actions(principal: Principal, episodeId: string, tenantSlug?: string): Promise<EpisodeActionsDto> {
    const episode = await this.require(principal, episodeId, tenantSlug);
    const rows = await this.audit.actionsOf([episode.serial]);
    return { episode_id: episode.id, actions: presentActionLog(rows) };
  }

  /** The episode just after its `n`-th action (0: as reset left it), replayed from its log: see episodeStep. */
  async step(principal: Principal, episodeId: string, n: number, tenantSlug?: string): Promise<EpisodeStepDto> {
    const episode = await this.require(principal, episodeId, tenantSlug);
    if (n > episode.stepCount) {
      throw new NotFoundError(`episode "${episodeId}" has no step ${n}: its steps are 0 (as reset left it) to ${episode.stepCount}`);
    }
    const rows = await this.audit.actionsOf([episode.serial]);
    const task = await this.catalog.fetchInstance(episode.taskId, episode.taskVersion, episode.seed, privateSplitKeyIdOf(episode));
    return episodeStep(task, episode, rows, n);
  }

  async verify(principal: Principal, episodeId: string, tenantSlug?: string): Promise<VerifyReportDto> {
    const episode = await this.require(principal, episodeId, tenantSlug);
    const rows = await this.audit.actionsOf([episode.serial]);
    return this.verifier.verify(episode, rows, await this.audit.ledgerOfEpisode(episode.tenantId, episode.id));
  }

  /** The episode's actions scored again by today's grader on the task's current version; nothing is stored. */
  async rescore(principal: Principal, episodeId: string, tenantSlug?: string): Promise<RescoreReportDto> {
    const episode = await this.require(principal, episodeId, tenantSlug);
    const rows = await this.audit.actionsOf([episode.serial]);
    const current = this.currentInstanceOf(episode);
    const replayed = replayUnder(current.task, episode.seed, rows.map((row) => JSON.parse(row.actionJson) as Action));
    const breakdown = grade(current.task, replayed.state);
    return {
      episode_id: episode.id,
      stored: { grader_version: episode.graderVersion, task_version: episode.taskVersion, score: toPoints(episode.scoreMilli) },
      rescored: {
        grader_version: breakdown.grader_version,
        task_version: current.version,
        score: toPoints(breakdown.score_milli),
        components: presentComponents(breakdown),
        reply_details: presentReplyDetails(breakdown, true),
        steps_replayed: replayed.steps,
      },
    };
  }

  /**
   * The instance of today's release an episode's actions are scored again on: the task file's current version for a
   * canonical episode; for a generated one, the family's newest generator drawing the same seed (a private-split
   * one under the same key, which draws the same private instance seed for seed).
   */
  private currentInstanceOf(episode: EpisodeSummaryRow): { task: Task; version: string } {
    const family = parseGeneratorVersion(episode.taskVersion) === null ? null : this.catalog.family(episode.taskId);
    if (!family) return this.catalog.latest(episode.taskId);
    const version = generatorVersionId(family.generatorVersion);
    return { task: this.catalog.instance(episode.taskId, version, episode.seed, privateSplitKeyIdOf(episode)), version };
  }

  /**
   * One JSON line per episode (summary plus full trajectory), newest first. Pages through the table, so memory
   * stays flat however large the export, and each page is one short database turn.
   */
  async *exportLines(principal: Principal, query: EpisodeFiltersDto): AsyncGenerator<string> {
    const scope = await this.scopeOf(principal, query.tenant);
    const filters = toFilters(query);
    let cursor = null;
    for (;;) {
      const page = await this.audit.listEpisodes(scope, filters, cursor, EXPORT_PAGE_SIZE);
      if (page.length === 0) return;
      // The page is the scope's already: its serials name exactly its episodes (ids repeat across tenants).
      const rows = await this.audit.actionsOf(page.map((e) => e.serial));
      const byEpisode = new Map<number, typeof rows>();
      for (const row of rows) byEpisode.set(row.episodeSerial, [...(byEpisode.get(row.episodeSerial) ?? []), row]);
      for (const episode of page) {
        const actions = presentActionLog(byEpisode.get(episode.serial) ?? []);
        yield `${JSON.stringify({ ...presentSummary(episode), actions })}\n`;
      }
      if (page.length < EXPORT_PAGE_SIZE) return;
      const last = page[page.length - 1];
      cursor = { createdAt: last.createdAt, serial: last.serial };
    }
  }

  async stats(principal: Principal, query: StatsQueryDto): Promise<StatsDto> {
    const scope = await this.scopeOf(principal, query.tenant);
    const threshold = query.threshold ?? 1;
    const filters = toFilters(query);
    const byAgent = query.group_by === 'agent';
    // Three independent reads: on PostgreSQL each takes its own pooled connection, so they run at once.
    const [buckets, repeatedGroups, purged] = await Promise.all([
      this.audit.scoreHistogram(scope, filters, byAgent),
      this.audit.repeatedTestPlayCounts(scope, filters, byAgent),
      this.audit.purgeTotals(scope),
    ]);
    const rows = summarizeHistogram(buckets, Math.round(threshold * 1000));
    const repeated = new Map<string, number>();
    for (const group of repeatedGroups) {
      const key = groupKey(group.taskId, group.agent);
      repeated.set(key, (repeated.get(key) ?? 0) + group.count);
    }
    const ratio = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 10000) / 10000);
    const points = (milli: number) => Math.round(milli) / 1000;
    return {
      threshold,
      purged: { episodes: purged.episodes, steps: purged.steps, purges: purged.purges, last_purge_at: purged.lastAt?.toISOString() ?? null },
      group_by: query.group_by ?? null,
      repeated_test_plays: [...repeated.values()].reduce((a, b) => a + b, 0),
      tasks: rows.map((row) => ({
        task_id: row.taskId,
        ...(query.group_by === 'agent' ? { agent: row.agent } : {}),
        count: row.count,
        completion_rate: ratio(row.completed, row.count),
        mean_score: points(row.meanMilli),
        median_score: points(row.medianMilli),
        success_rate: ratio(row.successes, row.count),
        repeated_test_plays: repeated.get(groupKey(row.taskId, byAgent ? row.agent : null)) ?? 0,
        component_means: {
          opened_target: points(row.componentMeansMilli.opened_target),
          policy_consulted: points(row.componentMeansMilli.policy_consulted),
          priority: points(row.componentMeansMilli.priority),
          routing: points(row.componentMeansMilli.routing),
          reply_coverage: points(row.componentMeansMilli.reply_coverage),
          resolution: points(row.componentMeansMilli.resolution),
        },
      })),
    };
  }

  /**
   * A tenant sees its own episodes; the admin key sees all, or one tenant's with `tenant=<slug>`. A well-formed
   * `tenant` is refused for what it asks, not for its form: from another key it is not allowed (403), and a slug
   * no tenant has is not found (404).
   */
  private async scopeOf(principal: Principal, tenantSlug: string | undefined): Promise<AuditScope> {
    if (principal.kind === 'tenant') {
      if (tenantSlug !== undefined) throw new ForbiddenError('only the admin key may choose a tenant (tenant=)');
      return { kind: 'tenant', tenantId: principal.tenantId };
    }
    if (tenantSlug === undefined) return { kind: 'all' };
    return { kind: 'tenant', tenantId: await this.tenants.tenantIdOf(tenantSlug) };
  }

  /**
   * Another tenant's episode answers 404 exactly as a missing one does. Ids are unique within a tenant: the admin
   * key names the tenant (`tenant=<slug>`) when an id is used by several.
   */
  private async require(principal: Principal, episodeId: string, tenantSlug?: string) {
    const scope = await this.scopeOf(principal, tenantSlug);
    const found = await this.audit.findEpisodes(scope, episodeId, 2);
    if (found.length === 0) throw new NotFoundError(`no episode "${episodeId}"`);
    if (found.length > 1) throw new ConflictError(`several tenants have an episode "${episodeId}"; name one with tenant=<slug>`);
    return found[0];
  }
}

/** A statistics row's group: its task, and its agent when grouped by agent. */
function groupKey(taskId: string, agent: string | null): string {
  return JSON.stringify([taskId, agent]);
}

function toFilters(query: EpisodeFiltersDto): EpisodeFilters {
  return {
    taskId: query.task_id,
    status: query.status,
    agent: query.agent,
    runLabel: query.run_label,
    variant: query.variant,
    split: query.split,
    feedback: query.feedback,
    runId: query.run_id,
    tag: query.tag,
    createdAfter: storedTimeBound(query.created_after),
    createdBefore: storedTimeBound(query.created_before),
    minScoreMilli: query.min_score === undefined ? undefined : Math.round(query.min_score * 1000),
    maxScoreMilli: query.max_score === undefined ? undefined : Math.round(query.max_score * 1000),
    repeatedTestPlay: query.repeated_test_play === undefined ? undefined : query.repeated_test_play === 'true',
  };
}

/**
 * A time filter as a bound the database compares: any RFC 3339 time is accepted, and one before 1970 or after 9999
 * (outside what stored times can be) is moved to the edge of that range, which changes no answer.
 */
function storedTimeBound(text: string | undefined): Date | undefined {
  if (text === undefined) return undefined;
  const time = parseDateTime(text)!.getTime();
  return new Date(Math.min(Math.max(time, EARLIEST_STORED_TIME.getTime()), LATEST_STORED_TIME.getTime()));
}

export function presentSummary(episode: EpisodeSummaryRow): EpisodeSummaryDto {
  return {
    episode_id: episode.id,
    alias: episode.alias,
    tenant_id: episode.tenantId,
    task_id: episode.taskId,
    task_version: episode.taskVersion,
    grader_version: episode.graderVersion,
    feedback: episode.feedback === 'final' ? 'final' : 'dense',
    ...instanceOf(episode),
    status: episode.status as EpisodeRowStatus,
    step_count: episode.stepCount,
    score: toPoints(episode.scoreMilli),
    seed: episode.seed,
    agent: episode.agent,
    run_label: episode.runLabel,
    tags: JSON.parse(episode.tagsJson) as string[],
    created_at: episode.createdAt.toISOString(),
    updated_at: episode.updatedAt.toISOString(),
  };
}
