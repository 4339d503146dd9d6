import { Injectable } from '@nestjs/common';
import { canonicalJson } from '../common/canonical-json';
import { ConflictError, NotFoundError, TooManyError } from '../common/domain-errors';
import type { EpisodeState } from '../engine/state';
import type { GradeBreakdown } from '../engine/grader';
import type { Episode, PrismaClient } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';
import { chainHash, componentColumns } from './action-chain';
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

@Injectable()
export class PrismaEpisodeRepository extends EpisodeRepository {
  constructor(private readonly prisma: PrismaService) {
    super();
  }

  create(tenantId: string, episode: NewEpisode, maxActive: number): Promise<EpisodeRecord> {
    return this.prisma.serialized(async (db) => {
      // Counted and created with nothing in between (the serialized path), so the cap cannot be overshot.
      if (maxActive > 0) {
        const active = await db.episode.count({ where: { tenantId, status: 'active' } });
        if (active >= maxActive) {
          throw new TooManyError(
            `this tenant has ${active} active episodes, the most allowed (${maxActive}); finish some, or let idle ones expire`,
          );
        }
      }
      const row = await db.episode.create({
        data: {
          id: episode.id,
          tenantId,
          taskId: episode.taskId,
          taskVersion: episode.taskVersion,
          seed: episode.seed,
          version: 0,
          agent: episode.agent,
          runLabel: episode.runLabel,
          tagsJson: JSON.stringify(episode.tags),
          tags: { create: episode.tags.map((tag) => ({ tag })) },
          ...summaryColumns(episode.state, episode.grade),
        },
      });
      return toRecord(row);
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

  applyStep(
    tenantId: string,
    episodeId: string,
    request: StepRequestKey | null,
    decide: (episode: EpisodeRecord) => StepWrite,
  ): Promise<StepOutcome> {
    return this.prisma.serialized(async (db) => {
      const episode = await findRow(db, tenantId, episodeId);
      if (!episode) throw new NotFoundError(`no episode "${episodeId}"`);
      if (request) {
        const prior = await db.stepRequest.findUnique({
          where: { episodeId_requestId: { episodeId, requestId: request.requestId } },
        });
        if (prior) return { kind: 'duplicate', actionHash: prior.actionHash, responseJson: prior.responseJson };
      }
      const { state, grade, entry, responseJson } = decide(episode);
      const createdAt = new Date();
      const hash = chainHash(episode.chainHead, {
        episodeId,
        stepIndex: entry.step,
        action: entry.action,
        rewardMilli: entry.reward_milli,
        scoreAfterMilli: entry.score_after_milli,
        outcome: entry.outcome,
        error: entry.error,
        createdAt,
      });
      // One batch transaction (a single BEGIN/COMMIT) for the episode update, its log row and the idempotency
      // record. The version check is a second guard behind the serialized path: a write computed from a stale
      // read matches no row, fails, and rolls the whole batch back instead of overwriting a newer state.
      const writes = [
        db.episode.update({
          where: { id_tenantId: { id: episodeId, tenantId }, version: episode.version },
          data: { version: episode.version + 1, chainHead: hash, ...summaryColumns(state, grade) },
          select: { updatedAt: true },
        }),
        db.actionLog.create({
          data: {
            episodeId,
            tenantId,
            stepIndex: entry.step,
            actionJson: canonicalJson(entry.action),
            rewardMilli: entry.reward_milli,
            scoreAfterMilli: entry.score_after_milli,
            outcome: entry.outcome,
            error: entry.error,
            createdAt,
            hash,
          },
          select: { id: true },
        }),
        ...(request
          ? [
              db.stepRequest.create({
                data: {
                  episodeId,
                  tenantId,
                  requestId: request.requestId,
                  stepIndex: entry.step,
                  actionHash: request.actionHash,
                  responseJson,
                  createdAt,
                },
                select: { requestId: true },
              }),
            ]
          : []),
      ];
      let updatedAt: Date;
      try {
        [{ updatedAt }] = (await db.$transaction(writes)) as [{ updatedAt: Date }, ...unknown[]];
      } catch (error) {
        if ((error as { code?: string }).code === 'P2025') {
          throw new ConflictError('the episode changed while this step was applied; retry');
        }
        throw error;
      }
      const applied: EpisodeRecord = {
        ...episode,
        status: state.status,
        version: episode.version + 1,
        state,
        chainHead: hash,
        updatedAt,
      };
      return { kind: 'applied', episode: applied, responseJson };
    });
  }

  expireIdleEpisodesOfAllTenants(cutoff: Date): Promise<number> {
    return this.prisma.serialized(async (db) => {
      const { count } = await db.episode.updateMany({
        where: { status: 'active', updatedAt: { lt: cutoff } },
        data: { status: 'expired' },
      });
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

/** Columns copied out of the snapshot and the grade so episodes can be filtered and aggregated in SQL. */
function summaryColumns(state: EpisodeState, grade: GradeBreakdown) {
  return {
    status: state.status,
    stepCount: state.step_count,
    scoreMilli: state.score_milli,
    stateJson: canonicalJson(state),
    ...componentColumns(grade),
  };
}

function toRecord(row: Episode): EpisodeRecord {
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
