import { Injectable } from '@nestjs/common';
import { canonicalJson } from '../common/canonical-json';
import type { Action } from '../engine/actions';
import { reset, step } from '../engine/engine';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';
import type { Episode } from '../generated/prisma/client';
import { TaskCatalog } from '../tasks/task-catalog.service';
import type { ActionRow } from './audit.repository';
import type { VerifyReportDto } from './dto/audit-responses.dto';
import { CHAIN_GENESIS, chainHash, toPoints } from '../episodes';

interface Finding {
  index: number;
  problem: string;
}

/**
 * Two independent checks of an episode's record: the hash chain (was any row changed, removed or reordered
 * after it was written?) and a replay of the logged actions through the engine against the task version the
 * episode ran (do the stored rewards, scores and final state follow from the actions?).
 */
@Injectable()
export class EpisodeVerifier {
  constructor(private readonly catalog: TaskCatalog) {}

  async verify(episode: Episode, rows: ActionRow[]): Promise<VerifyReportDto> {
    const chain = this.checkChain(episode, rows);
    const task = await this.catalog.fetchVersion(episode.taskId, episode.taskVersion);
    const replay = this.replay(task, episode, rows);
    const first = [chain, replay.finding].filter((f): f is Finding => f !== null).sort((a, b) => a.index - b.index)[0];
    return {
      episode_id: episode.id,
      chain_ok: chain === null,
      replay_ok: replay.finding === null,
      stored_score: toPoints(episode.scoreMilli),
      replayed_score: toPoints(replay.scoreMilli),
      ...(first ? { first_bad_index: first.index, problem: first.problem } : {}),
    };
  }

  private checkChain(episode: Episode, rows: ActionRow[]): Finding | null {
    let previous = CHAIN_GENESIS;
    for (const [i, row] of rows.entries()) {
      if (row.stepIndex !== i + 1) return { index: i + 1, problem: `step ${i + 1} is missing from the log` };
      if (row.hash === '') return { index: row.stepIndex, problem: 'row was written before hash chaining existed' };
      const expected = chainHash(previous, {
        episodeId: episode.id,
        stepIndex: row.stepIndex,
        action: JSON.parse(row.actionJson) as Action,
        rewardMilli: row.rewardMilli,
        scoreAfterMilli: row.scoreAfterMilli,
        outcome: row.outcome,
        error: row.error,
        createdAt: row.createdAt,
      });
      if (row.hash !== expected) return { index: row.stepIndex, problem: 'row does not match its hash' };
      previous = row.hash;
    }
    if (episode.chainHead !== previous) {
      return { index: rows.length + 1, problem: "the episode's chain head is not the last logged row: rows are missing" };
    }
    return null;
  }

  /** Replays every logged action (past the first mismatch too, so replayed_score is what the actions earn). */
  private replay(task: Task, episode: Episode, rows: ActionRow[]): { finding: Finding | null; scoreMilli: number } {
    let state: EpisodeState = reset(task, episode.seed);
    let finding: Finding | null = null;
    for (const row of rows) {
      if (state.done) {
        finding ??= { index: row.stepIndex, problem: 'a step was logged after the episode ended' };
        break;
      }
      const result = step(task, state, JSON.parse(row.actionJson) as Action);
      state = result.state;
      if (result.reward_milli !== row.rewardMilli || state.score_milli !== row.scoreAfterMilli) {
        finding ??= { index: row.stepIndex, problem: 'replayed reward or score differs from the logged one' };
      }
    }
    // Compared in canonical form: the snapshot is stored as plain JSON (key order is the engine's, not sorted).
    if (state.score_milli !== episode.scoreMilli || canonicalJson(state) !== canonicalJson(JSON.parse(episode.stateJson))) {
      finding ??= { index: rows.length, problem: 'the stored state differs from the replayed one' };
    }
    return { finding, scoreMilli: state.score_milli };
  }
}
