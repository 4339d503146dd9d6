import type { Action } from '../engine/actions';
import type { GradeBreakdown } from '../engine/grader';
import { observe } from '../engine/observation';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';
import type { ActionLogRecord, EpisodeRecord } from './episode.repository';
import type {
  ActionLogEntryDto,
  EpisodeStateDto,
  GradeResponseDto,
  ResetResponseDto,
  ScoreComponentDto,
  StepResponseDto,
} from './dto/episode-responses.dto';
import type { ReplyDetailGradeDto } from './dto/reply-detail-grade.dto';

/** Milli-points are exact integers inside; the API speaks scores and rewards as numbers from 0 to 1. */
export const toPoints = (milli: number): number => milli / 1000;

export function presentComponents(breakdown: GradeBreakdown): ScoreComponentDto[] {
  return breakdown.components.map((c) => ({
    name: c.name,
    weight: toPoints(c.weight_milli),
    earned: toPoints(c.earned_milli),
    why: c.why,
  }));
}

export function presentReset(task: Task, episode: EpisodeRecord): ResetResponseDto {
  const { state } = episode;
  return {
    episode_id: episode.id,
    observation: observe(task, state),
    reward: 0,
    done: false,
    info: {
      task_id: task.id,
      task_version: episode.taskVersion,
      grader_version: episode.graderVersion,
      seed: episode.seed,
      max_steps: state.max_steps,
      score: toPoints(state.score_milli),
      status: state.status,
      agent: episode.agent,
      run_label: episode.runLabel,
      tags: episode.tags,
    },
  };
}

export function presentStep(task: Task, episodeId: string, state: EpisodeState, rewardMilli: number): StepResponseDto {
  return {
    episode_id: episodeId,
    observation: observe(task, state),
    reward: toPoints(rewardMilli),
    done: state.done,
    info: {
      task_id: state.task_id,
      score: toPoints(state.score_milli),
      step_count: state.step_count,
      status: state.status,
      last_action_error: state.last_action_error,
    },
  };
}

export function presentActionLog(rows: ActionLogRecord[]): ActionLogEntryDto[] {
  return rows.map((row) => ({
    step: row.stepIndex,
    action: JSON.parse(row.actionJson) as Action,
    outcome: row.outcome,
    error: row.error,
    reward: toPoints(row.rewardMilli),
    score_after: toPoints(row.scoreAfterMilli),
    created_at: row.createdAt.toISOString(),
    hash: row.hash,
  }));
}

export function presentState(
  task: Task,
  episode: EpisodeRecord,
  breakdown: GradeBreakdown,
  actions: ActionLogRecord[],
): EpisodeStateDto {
  const { state } = episode;
  return {
    episode_id: episode.id,
    task_id: episode.taskId,
    task_version: episode.taskVersion,
    grader_version: episode.graderVersion,
    seed: episode.seed,
    status: episode.status,
    done: state.done,
    step_count: state.step_count,
    max_steps: state.max_steps,
    score: toPoints(state.score_milli),
    components: presentComponents(breakdown),
    active_ticket: observe(task, state).active_ticket,
    actions: presentActionLog(actions),
    created_at: episode.createdAt.toISOString(),
    updated_at: episode.updatedAt.toISOString(),
  };
}

export function presentGrade(episode: EpisodeRecord, breakdown: GradeBreakdown): GradeResponseDto {
  return {
    episode_id: episode.id,
    task_id: episode.taskId,
    grader_version: breakdown.grader_version,
    status: episode.status,
    score: toPoints(breakdown.score_milli),
    components: presentComponents(breakdown),
    reply_details: presentReplyDetails(breakdown, episode.status !== 'active'),
  };
}

/** The value of a detail is part of the answer: its description is given only once nothing can change any more. */
export function presentReplyDetails(breakdown: GradeBreakdown, ended: boolean): ReplyDetailGradeDto[] {
  return breakdown.reply_details.map((detail) => ({ ...detail, description: ended ? detail.description : null }));
}
