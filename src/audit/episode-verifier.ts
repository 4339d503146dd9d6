import { Injectable } from '@nestjs/common';
import { canonicalJson } from '../common/canonical-json';
import type { Action } from '../engine/actions';
import { reset, step } from '../engine/engine';
import { grade } from '../engine/grader';
import { replayableVersion } from './replay';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';
import type { Episode } from '../generated/prisma/client';
import { PrivateSplitKeyNotHeldError, privateSplitKeyIdOf } from '../tasks/private-split';
import { TaskCatalog } from '../tasks/task-catalog.service';
import type { ActionRow, EpisodeWithSeal } from './audit-rows';
import type { VerifyReportDto } from './dto/audit-responses.dto';
import { ChainKeys, SNAPSHOT_DROPPED, componentColumns, instanceOf, episodeLedgerFinding, toPoints, verifyChain, type ChainFinding, type ComponentColumns, type EpisodeLedger, type StoredChain } from '../episodes';

/**
 * Two independent checks of an episode's record: the hash chain (was any row or any of the episode's metadata
 * changed, removed or reordered after it was written? keyed, so only a holder of the chain key could redo it) and
 * a replay of the logged actions through the engine against the task version the episode ran, with the grader
 * version it was scored with (do the stored rewards, scores and final state follow from the actions?).
 */
@Injectable()
export class EpisodeVerifier {
  constructor(
    private readonly catalog: TaskCatalog,
    private readonly keys: ChainKeys,
  ) {}

  async verify(episode: EpisodeWithSeal, rows: ActionRow[], ledger: EpisodeLedger): Promise<VerifyReportDto> {
    const chain =
      verifyChain(storedChainOf(episode), rows.map((row) => ({ ...row, episodeId: episode.id, action: JSON.parse(row.actionJson) as Action })), (id) =>
        this.keys.byId(id),
      ) ?? tagRowsFinding(episode);
    const replay = await this.replayIfDrawable(episode, rows);
    const stored = storedChainOf(episode);
    const inLedger = episodeLedgerFinding(
      { ...stored, chainScheme: episode.chainScheme, chainKeyId: episode.chainKeyId, feedback: episode.feedback, status: episode.status, rowHashes: rows.map((r) => r.hash) },
      ledger,
      (id) => this.keys.byId(id),
    );
    const instance = instanceOf(episode);
    const first = [chain, replay.finding, inLedger].filter((f): f is ChainFinding => f !== null).sort((a, b) => a.index - b.index)[0];
    return {
      episode_id: episode.id,
      chain_ok: chain === null,
      replay_ok: replay.finding === null,
      ledger_ok: inLedger === null,
      chain_scheme: episode.chainScheme,
      chain_key_id: episode.legacySeal?.keyId ?? episode.chainKeyId,
      grader_version: episode.graderVersion,
      split_source: instance.split_source,
      split_key_id: instance.split_key_id,
      stored_score: toPoints(episode.scoreMilli),
      replayed_score: replay.scoreMilli === null ? null : toPoints(replay.scoreMilli),
      ...(first ? { first_bad_index: first.index, problem: first.problem } : {}),
    };
  }

  /**
   * The replay, unless the instance cannot be drawn: a private-split episode whose key this server no longer holds
   * is reported as not verifiable (the chain and the ledger are still checked), never a 5xx or a replay against the
   * wrong instance.
   */
  private async replayIfDrawable(episode: EpisodeWithSeal, rows: ActionRow[]): Promise<{ finding: ChainFinding | null; scoreMilli: number | null }> {
    let task: Task;
    try {
      task = await this.catalog.fetchInstance(episode.taskId, episode.taskVersion, episode.seed, privateSplitKeyIdOf(episode));
    } catch (error) {
      if (!(error instanceof PrivateSplitKeyNotHeldError)) throw error;
      const problem = `cannot verify the replay: the instance was drawn from the private test split with key ${error.keyId}, which this server does not hold (add it to PRIVATE_SPLIT_RETIRED_KEYS_FILE)`;
      return { finding: { index: 0, problem }, scoreMilli: null };
    }
    return this.replay(task, episode, rows);
  }

  /** Replays every logged action (past the first mismatch too, so replayed_score is what the actions earn). */
  private replay(task: Task, episode: Episode, rows: ActionRow[]): { finding: ChainFinding | null; scoreMilli: number } {
    // The grader the episode was scored with, whatever the current one is: its record must follow from its actions.
    const version = replayableVersion(task, episode.graderVersion);
    if (version === null) {
      return { finding: { index: 0, problem: `the task version cannot be graded with the stored grader version ${episode.graderVersion}` }, scoreMilli: 0 };
    }
    let state: EpisodeState = reset(task, episode.seed, version);
    let finding: ChainFinding | null = null;
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
    // Compared in canonical form, and as it would be stored: the snapshot is plain JSON (key order is the engine's,
    // not sorted), which holds a number it cannot write (a reply's 400-digit amount reads as Infinity) as null.
    // A finished episode keeps no snapshot (episodes/finished-state.ts): there is nothing to compare but its columns.
    const replayedAsStored: unknown = JSON.parse(JSON.stringify(state));
    const snapshotDiffers = episode.stateJson !== SNAPSHOT_DROPPED && canonicalJson(replayedAsStored) !== canonicalJson(JSON.parse(episode.stateJson));
    if (state.score_milli !== episode.scoreMilli || snapshotDiffers) {
      finding ??= { index: rows.length, problem: 'the stored state differs from the replayed one' };
    }
    finding ??= summaryFinding(task, state, episode, rows.length);
    return { finding, scoreMilli: state.score_milli };
  }
}

/**
 * The columns audits and /stats read besides the snapshot: the step count, the component scores they add up and
 * the status must be what the replay gives (an active episode may have been expired by the idle sweep since).
 */
function summaryFinding(task: Task, state: EpisodeState, episode: Episode, rowCount: number): ChainFinding | null {
  const stored: Record<string, number> = { ...pickComponents(episode), stepCount: episode.stepCount };
  const replayed: Record<string, number> = { ...componentColumns(grade(task, state)), stepCount: state.step_count };
  const differing = Object.keys(replayed).filter((column) => stored[column] !== replayed[column]);
  if (differing.length > 0) return { index: rowCount, problem: `the stored ${differing.join(', ')} differ from the replayed ones` };
  const expiredWhileActive = episode.status === 'expired' && state.status === 'active';
  if (episode.status !== state.status && !expiredWhileActive) {
    return { index: rowCount, problem: `the stored status "${episode.status}" differs from the replayed "${state.status}"` };
  }
  return null;
}

function pickComponents(episode: Episode): ComponentColumns {
  const { openedMilli, policyMilli, priorityMilli, routingMilli, replyMilli, resolutionMilli } = episode;
  return { openedMilli, policyMilli, priorityMilli, routingMilli, replyMilli, resolutionMilli };
}

/** Filters read the tag rows, the chain commits to the tags in the episode's metadata: they must be the same set. */
function tagRowsFinding(episode: EpisodeWithSeal): ChainFinding | null {
  const rows = episode.tags.map((t) => t.tag).sort();
  const chained = [...new Set(JSON.parse(episode.tagsJson) as string[])].sort();
  if (canonicalJson(rows) === canonicalJson(chained)) return null;
  return { index: 0, problem: "the episode's tag rows (what filters and /stats?tag= read) differ from its chained tags" };
}

function storedChainOf(episode: EpisodeWithSeal): StoredChain {
  return {
    scheme: episode.chainScheme,
    keyId: episode.chainKeyId,
    head: episode.chainHead,
    metadata: {
      episodeId: episode.id,
      tenantId: episode.tenantId,
      taskId: episode.taskId,
      taskVersion: episode.taskVersion,
      seed: episode.seed,
      agent: episode.agent,
      runLabel: episode.runLabel,
      tags: JSON.parse(episode.tagsJson) as string[],
      apiKeyId: episode.apiKeyId,
      createdAt: episode.createdAt,
      splitSource: episode.splitSource,
      splitKeyId: episode.splitKeyId,
    },
    seal: episode.legacySeal,
  };
}
