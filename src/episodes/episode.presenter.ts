import type { Action } from '../engine/actions';
import type { GradeBreakdown } from '../engine/grader';
import { parseGeneratorVersion, splitOf, type Split } from '../families';
import { observe, type Observation } from '../engine/observation';
import type { Variant } from './dto/reset-request.dto';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';
import type { ActionLogRecord, EpisodeRecord, FeedbackMode } from './episode.repository';
import type {
  ActionLogEntryDto,
  EpisodeStateDto,
  GradeResponseDto,
  PenaltyDto,
  ResetResponseDto,
  ScoreComponentDto,
  StepResponseDto,
} from './dto/episode-responses.dto';
import type { ReplyDetailGradeDto } from './dto/reply-detail-grade.dto';

/** Which instance an episode runs: a family's drawn one (with the seed's split), or the task file's canonical one. */
export function instanceOf(taskVersion: string, seed: number): { variant: Variant; split: Split | null } {
  return parseGeneratorVersion(taskVersion) === null ? { variant: 'canonical', split: null } : { variant: 'generated', split: splitOf(seed) };
}

/** Milli-points are exact integers inside; the API speaks scores and rewards as numbers from 0 to 1. */
export const toPoints = (milli: number): number => milli / 1000;

/**
 * Whether the agent is kept from the score now: an episode started with feedback "final" that has not ended.
 * Everything that would tell it how it is doing (score, components, rewards, the grader's explanations) waits
 * for the end, so trying values until the reward moves is impossible; the evaluator's audit routes still see it.
 */
export function scoreWithheld(feedback: FeedbackMode, ended: boolean): boolean {
  return feedback === 'final' && !ended;
}

/** The observation as the episode's feedback mode lets the agent see it. */
export function presentObservation(task: Task, state: EpisodeState, feedback: FeedbackMode, ended: boolean = state.done): Observation {
  const observation = observe(task, state);
  return scoreWithheld(feedback, ended) ? { ...observation, score: null } : observation;
}

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
  const withheld = scoreWithheld(episode.feedback, false);
  return {
    episode_id: episode.id,
    observation: presentObservation(task, state, episode.feedback, false),
    reward: 0,
    done: false,
    info: {
      task_id: task.id,
      task_version: episode.taskVersion,
      grader_version: episode.graderVersion,
      feedback: episode.feedback,
      ...instanceOf(episode.taskVersion, episode.seed),
      seed: episode.seed,
      max_steps: state.max_steps,
      score: withheld ? null : toPoints(state.score_milli),
      status: state.status,
      agent: episode.agent,
      run_label: episode.runLabel,
      tags: episode.tags,
    },
  };
}

/**
 * One step's response. With feedback "final" the reward is 0 until the step that ends the episode, which carries
 * the whole score: a sparse reward whose sum over the episode is the score, as the dense rewards' sum is.
 */
export function presentStep(task: Task, episodeId: string, state: EpisodeState, rewardMilli: number, feedback: FeedbackMode): StepResponseDto {
  const withheld = scoreWithheld(feedback, state.done);
  const reward = feedback === 'dense' ? rewardMilli : state.done ? state.score_milli : 0;
  return {
    episode_id: episodeId,
    observation: presentObservation(task, state, feedback),
    reward: toPoints(reward),
    done: state.done,
    info: {
      task_id: state.task_id,
      score: withheld ? null : toPoints(state.score_milli),
      step_count: state.step_count,
      status: state.status,
      last_action_error: state.last_action_error,
    },
  };
}

/** The action log; its rewards are the dense ones, stored for every episode (withheld: null). */
export function presentActionLog(rows: ActionLogRecord[], withheld = false): ActionLogEntryDto[] {
  return rows.map((row) => ({
    step: row.stepIndex,
    action: JSON.parse(row.actionJson) as Action,
    outcome: row.outcome,
    error: row.error,
    reward: withheld ? null : toPoints(row.rewardMilli),
    score_after: withheld ? null : toPoints(row.scoreAfterMilli),
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
  const withheld = scoreWithheld(episode.feedback, episode.status !== 'active');
  return {
    episode_id: episode.id,
    task_id: episode.taskId,
    task_version: episode.taskVersion,
    grader_version: episode.graderVersion,
    feedback: episode.feedback,
    ...instanceOf(episode.taskVersion, episode.seed),
    seed: episode.seed,
    status: episode.status,
    done: state.done,
    step_count: state.step_count,
    max_steps: state.max_steps,
    score: withheld ? null : toPoints(state.score_milli),
    components: withheld ? null : presentComponents(breakdown),
    active_ticket: observe(task, state).active_ticket,
    actions: presentActionLog(actions, withheld),
    created_at: episode.createdAt.toISOString(),
    updated_at: episode.updatedAt.toISOString(),
  };
}

export function presentGrade(episode: EpisodeRecord, breakdown: GradeBreakdown): GradeResponseDto {
  const ended = episode.status !== 'active';
  const withheld = scoreWithheld(episode.feedback, ended);
  return {
    episode_id: episode.id,
    task_id: episode.taskId,
    grader_version: breakdown.grader_version,
    feedback: episode.feedback,
    status: episode.status,
    score: withheld ? null : toPoints(breakdown.score_milli),
    components: withheld ? null : presentComponents(breakdown),
    reply_details: withheld ? null : presentReplyDetails(breakdown, ended),
    penalties: withheld ? null : presentPenalties(breakdown),
  };
}

export function presentPenalties(breakdown: GradeBreakdown): PenaltyDto[] {
  return breakdown.penalties.map(({ penalty_milli, ...penalty }) => ({ ...penalty, penalty: toPoints(penalty_milli) }));
}

/**
 * While the episode runs, a detail is named by its place (detail_1, …) and a miss by nothing: its id ("account_locked")
 * would tell the agent what to say, its description the value, and the reason or sentence of a miss which of the
 * candidate values it tried matched. A covered detail shows the agent's own sentence. Everything once it has ended.
 */
export function presentReplyDetails(breakdown: GradeBreakdown, ended: boolean): ReplyDetailGradeDto[] {
  if (ended) return breakdown.reply_details.map((detail) => ({ ...detail }));
  return breakdown.reply_details.map((detail, i) => ({
    id: `detail_${i + 1}`,
    description: null,
    covered: detail.covered,
    reason: null,
    sentence: detail.covered ? detail.sentence : null,
    reply_step: detail.covered ? detail.reply_step : null,
  }));
}
