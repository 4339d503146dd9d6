import { Injectable } from '@nestjs/common';
import { canonicalJson } from '../common/canonical-json';
import { ConflictError, NotFoundError } from '../common/domain-errors';
import type { EpisodeState } from '../engine/state';
import type { Episode, PrismaClient } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';
import {
  EpisodeRepository,
  type ActionLogRecord,
  type EpisodeRecord,
  type NewEpisode,
  type StepWrite,
} from './episode.repository';

@Injectable()
export class PrismaEpisodeRepository extends EpisodeRepository {
  constructor(private readonly prisma: PrismaService) {
    super();
  }

  create(tenantId: string, episode: NewEpisode): Promise<EpisodeRecord> {
    return this.prisma.serialized(async (db) => {
      const row = await db.episode.create({
        data: {
          id: episode.id,
          tenantId,
          taskId: episode.taskId,
          taskVersion: episode.taskVersion,
          seed: episode.seed,
          version: 0,
          ...summaryColumns(episode.state),
        },
      });
      return toRecord(row);
    });
  }

  find(tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
    return this.prisma.serialized((db) => findRow(db, tenantId, episodeId));
  }

  applyStep(tenantId: string, episodeId: string, decide: (episode: EpisodeRecord) => StepWrite): Promise<EpisodeRecord> {
    return this.prisma.serialized(async (db) => {
      const episode = await findRow(db, tenantId, episodeId);
      if (!episode) throw new NotFoundError(`no episode "${episodeId}"`);
      const { state, entry } = decide(episode);
      // The version check is a second guard behind the serialized path: a write computed from a stale read
      // matches no row and fails instead of overwriting a newer state.
      const row = await db.$transaction(async (tx) => {
        const updated = await tx.episode
          .update({
            where: { id_tenantId: { id: episodeId, tenantId }, version: episode.version },
            data: { version: episode.version + 1, ...summaryColumns(state) },
          })
          .catch((error: unknown) => {
            if ((error as { code?: string }).code === 'P2025') {
              throw new ConflictError('the episode changed while this step was applied; retry');
            }
            throw error;
          });
        await tx.actionLog.create({
          data: {
            episodeId,
            tenantId,
            stepIndex: entry.step,
            actionJson: canonicalJson(entry.action),
            rewardMilli: entry.reward_milli,
            scoreAfterMilli: entry.score_after_milli,
            outcome: entry.outcome,
            error: entry.error,
          },
        });
        return updated;
      });
      return toRecord(row);
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
        },
      }),
    );
  }
}

async function findRow(db: PrismaClient, tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
  const row = await db.episode.findUnique({ where: { id_tenantId: { id: episodeId, tenantId } } });
  return row ? toRecord(row) : null;
}

/** Columns copied out of the snapshot so episodes can be filtered and summarized without parsing it. */
function summaryColumns(state: EpisodeState) {
  return {
    status: state.status,
    stepCount: state.step_count,
    scoreMilli: state.score_milli,
    stateJson: canonicalJson(state),
  };
}

function toRecord(row: Episode): EpisodeRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    taskId: row.taskId,
    taskVersion: row.taskVersion,
    seed: row.seed,
    version: row.version,
    state: JSON.parse(row.stateJson) as EpisodeState,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
