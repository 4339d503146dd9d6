import { Inject, Injectable } from '@nestjs/common';
import { canonicalJson } from '../common/canonical-json';
import { ConflictError, NotFoundError, TooManyError } from '../common/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import type { EpisodeState } from '../engine/state';
import type { GradeBreakdown } from '../engine/grader';
import type { PrismaClient } from '../generated/prisma/client';
import type { SqlConnection } from '../prisma/group-commit';
import { PrismaService } from '../prisma/prisma.service';
import { CHAIN_GENESIS, chainHash, componentColumns } from './action-chain';
import { ActiveEpisodeCache } from './active-episode-cache';
import {
  countActiveEpisodes,
  insertActionLog,
  insertEpisode,
  insertStepRequest,
  selectEpisode,
  selectStepRequest,
  updateEpisodeStep,
  type EpisodeRow,
  type EpisodeSummary,
} from './episode-sql';
import {
  EpisodeRepository,
  type ActionLogRecord,
  type EpisodeRecord,
  type EpisodeRowStatus,
  type NewEpisode,
  type StepOutcome,
  type StepRequestKey,
  type StepWrite,
} from './episode.repository';

/** Thrown inside a step's write when the episode row is no longer at the version the step was computed from. */
class StaleEpisodeError extends Error {}

/**
 * Episodes in SQLite. Reset and step (the hot path) are group-committed statements on the direct connection,
 * with recently stepped episodes cached in memory; the rest are Prisma queries.
 */
@Injectable()
export class PrismaEpisodeRepository extends EpisodeRepository {
  private readonly cache: ActiveEpisodeCache;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.cache = new ActiveEpisodeCache(config.episodeCacheSize);
    // A batch that failed to commit may have cached states that were never stored.
    prisma.onBatchRollback(() => this.cache.clear());
  }

  create(tenantId: string, episode: NewEpisode, maxActive: number): Promise<EpisodeRecord> {
    return this.prisma.batched((sql) => {
      // Counted and created in one synchronous write, so the cap cannot be overshot.
      if (maxActive > 0) {
        const active = countActiveEpisodes(sql, tenantId);
        if (active >= maxActive) {
          throw new TooManyError(
            `this tenant has ${active} active episodes, the most allowed (${maxActive}); finish some, or let idle ones expire`,
          );
        }
      }
      const now = new Date();
      const record: EpisodeRecord = {
        id: episode.id,
        tenantId,
        status: episode.state.status,
        taskId: episode.taskId,
        taskVersion: episode.taskVersion,
        seed: episode.seed,
        version: 0,
        agent: episode.agent,
        runLabel: episode.runLabel,
        tags: episode.tags,
        state: episode.state,
        chainHead: CHAIN_GENESIS,
        createdAt: now,
        updatedAt: now,
      };
      try {
        insertEpisode(sql, record, summaryOf(episode.state, episode.grade));
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE') {
          throw new ConflictError(`an episode "${episode.id}" already exists; choose another episode_id or omit it`);
        }
        throw error;
      }
      this.cache.put(record);
      return record;
    });
  }

  find(tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
    return this.prisma.serialized((db) => findRow(db, tenantId, episodeId));
  }

  findLatest(tenantId: string): Promise<EpisodeRecord | null> {
    return this.prisma.serialized(async (db) => {
      const row = await db.episode.findFirst({ where: { tenantId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
      return row ? toRecord(row) : null;
    });
  }

  applyStep<R>(
    tenantId: string,
    episodeId: string,
    request: StepRequestKey | null,
    decide: (episode: EpisodeRecord) => StepWrite<R>,
  ): Promise<StepOutcome<R>> {
    return this.prisma.batched((sql) => {
      const cached = this.cache.get(tenantId, episodeId);
      const episode = cached ?? readEpisode(sql, tenantId, episodeId);
      if (!episode) throw new NotFoundError(`no episode "${episodeId}"`);
      if (request) {
        const prior = selectStepRequest(sql, tenantId, episodeId, request.requestId);
        if (prior) return { kind: 'duplicate', ...prior };
      }
      try {
        return this.writeStep(sql, episode, request, decide);
      } catch (error) {
        if (!(error instanceof StaleEpisodeError)) throw error;
        this.cache.forget(tenantId, episodeId);
        if (!cached) throw new ConflictError('the episode changed while this step was applied; retry');
        // The cached copy was stale (another writer moved the row on): compute the step again from the row.
        const fresh = readEpisode(sql, tenantId, episodeId);
        if (!fresh) throw new NotFoundError(`no episode "${episodeId}"`);
        return this.writeStep(sql, fresh, request, decide);
      }
    });
  }

  /** Runs inside the batch transaction: computes the step from `episode` and writes it, then caches the result. */
  private writeStep<R>(
    sql: SqlConnection,
    episode: EpisodeRecord,
    request: StepRequestKey | null,
    decide: (episode: EpisodeRecord) => StepWrite<R>,
  ): StepOutcome<R> {
    const { state, grade, entry, response } = decide(episode);
    const createdAt = new Date();
    const hash = chainHash(episode.chainHead, {
      episodeId: episode.id,
      stepIndex: entry.step,
      action: entry.action,
      rewardMilli: entry.reward_milli,
      scoreAfterMilli: entry.score_after_milli,
      outcome: entry.outcome,
      error: entry.error,
      createdAt,
    });
    // Conditioned on the version the step was computed from: a stale read matches no row and writes nothing.
    const key = { tenantId: episode.tenantId, episodeId: episode.id, expectedVersion: episode.version };
    if (!updateEpisodeStep(sql, key, hash, summaryOf(state, grade), createdAt)) throw new StaleEpisodeError();
    insertActionLog(sql, {
      episodeId: episode.id,
      tenantId: episode.tenantId,
      stepIndex: entry.step,
      actionJson: canonicalJson(entry.action),
      rewardMilli: entry.reward_milli,
      scoreAfterMilli: entry.score_after_milli,
      outcome: entry.outcome,
      error: entry.error,
      createdAt,
      hash,
    });
    if (request) {
      insertStepRequest(sql, {
        episodeId: episode.id,
        tenantId: episode.tenantId,
        requestId: request.requestId,
        stepIndex: entry.step,
        actionHash: request.actionHash,
        responseJson: JSON.stringify(response),
        createdAt,
      });
    }
    this.cache.put({ ...episode, status: state.status, version: episode.version + 1, state, chainHead: hash, updatedAt: createdAt });
    return { kind: 'applied', response };
  }

  expireIdleEpisodesOfAllTenants(cutoff: Date): Promise<number> {
    return this.prisma.serialized(async (db) => {
      const { count } = await db.episode.updateMany({
        where: { status: 'active', updatedAt: { lt: cutoff } },
        // The version moves on so that a cached copy of an expired episode can no longer be written back.
        data: { status: 'expired', version: { increment: 1 } },
      });
      if (count > 0) this.cache.clear();
      return count;
    });
  }

  listActions(tenantId: string, episodeId: string): Promise<ActionLogRecord[]> {
    return this.prisma.serialized((db) =>
      db.actionLog.findMany({
        where: { tenantId, episodeId },
        orderBy: { stepIndex: 'asc' },
        select: {
          stepIndex: true,
          actionJson: true,
          rewardMilli: true,
          scoreAfterMilli: true,
          outcome: true,
          error: true,
          createdAt: true,
          hash: true,
        },
      }),
    );
  }
}

async function findRow(db: PrismaClient, tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
  const row = await db.episode.findUnique({ where: { id_tenantId: { id: episodeId, tenantId } } });
  return row ? toRecord(row) : null;
}

function readEpisode(sql: SqlConnection, tenantId: string, episodeId: string): EpisodeRecord | null {
  const row = selectEpisode(sql, tenantId, episodeId);
  return row ? toRecord(row) : null;
}

/** Columns copied out of the snapshot and the grade so episodes can be filtered and aggregated in SQL. */
function summaryOf(state: EpisodeState, grade: GradeBreakdown): EpisodeSummary {
  return {
    status: state.status,
    stepCount: state.step_count,
    scoreMilli: state.score_milli,
    // Plain JSON, not canonical: this runs on every step, and nothing hashes the snapshot (verify compares it
    // in canonical form).
    stateJson: JSON.stringify(state),
    ...componentColumns(grade),
  };
}

function toRecord(row: EpisodeRow): EpisodeRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    status: row.status as EpisodeRowStatus,
    taskId: row.taskId,
    taskVersion: row.taskVersion,
    seed: row.seed,
    version: row.version,
    agent: row.agent,
    runLabel: row.runLabel,
    tags: JSON.parse(row.tagsJson) as string[],
    state: JSON.parse(row.stateJson) as EpisodeState,
    chainHead: row.chainHead,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
