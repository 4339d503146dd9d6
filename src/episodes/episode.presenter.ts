import type { Action } from '../engine/actions';
import type { GradeBreakdown } from '../engine/grader';
import { parseGeneratorVersion, splitOf, type Split, type SplitSource } from '../families';
import { observe, type Observation } from '../engine/observation';
import type { Variant } from './dto/reset-request.dto';
import type { EpisodeState } from '../engine/state';
import type { Task } from '../engine/task.schema';
import type { EpisodeCaller } from '../access/principal';
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

/** What identifies an episode's instance: the task version, the seed, and the test split it was drawn from. */
export type InstanceIdentity = Pick<EpisodeRecord, 'taskVersion' | 'seed'> & { splitSource: string; splitKeyId: string | null };

/**
 * Which instance an episode runs: a family's drawn one (with the seed's split, and whether the generator was fed
 * the seed itself or, for the private test split, a seed derived under the key named), or the task file's
 * canonical one. Never the derived seed: it exists only while the instance is drawn.
 */
export function instanceOf(episode: InstanceIdentity): { variant: Variant; split: Split | null; split_source: SplitSource | null; split_key_id: string | null } {
  if (parseGeneratorVersion(episode.taskVersion) === null) return { variant: 'canonical', split: null, split_source: null, split_key_id: null };
  const source: SplitSource = episode.splitSource === 'public' ? 'public' : 'private';
  return { variant: 'generated', split: splitOf(episode.seed), split_source: source, split_key_id: source === 'private' ? episode.splitKeyId : null };
}

/** Evaluation instances: the test split's, public or private (private-split seeds are test seeds; checked apart all the same). */
function isTestInstance(episode: InstanceIdentity): boolean {
  const instance = instanceOf(episode);
  return instance.split === 'test' || instance.split_source === 'private';
}

/** Milli-points are exact integers inside; the API speaks scores and rewards as numbers from 0 to 1. */
export const toPoints = (milli: number): number => milli / 1000;

/**
 * What a caller is shown of an episode's grading (score, rewards, components, penalties, reply details):
 * - "dense": all of it, after every step;
 * - "final": nothing while the episode runs, all of it once it has ended (an episode started with feedback "final");
 * - "withheld": nothing, ever: a test-split episode, or an episode filling a cell of a final-mode evaluation run, seen
 *   by an agent key (the test split and runs are what agents are evaluated on, so one ended episode must not tell
 *   them a test instance's answers or score).
 * The shape is the same in every view: a withheld score is null, a withheld reward 0, as "final" gives them while
 * the episode runs; a step that ends the episode with a null score says it was withheld.
 */
export type GradeView = FeedbackMode | 'withheld';

/**
 * The one decision of what a caller sees of an episode's grading. Every route and transport (HTTP, /ws, /mcp, the
 * OpenEnv sessions, the baseline) presents episodes through the episodes service, which asks this; the audit routes
 * are for readers and the admin key, who see everything.
 */
export function gradeViewFor(
  caller: Pick<EpisodeCaller, 'seesTestGrades'>,
  episode: Pick<EpisodeRecord, 'feedback'> & Partial<Pick<EpisodeRecord, 'runId'>> & InstanceIdentity,
): GradeView {
  if (!caller.seesTestGrades && isTestInstance(episode)) return 'withheld';
  if (!caller.seesTestGrades && episode.runId != null && episode.feedback === 'final') return 'withheld';
  return episode.feedback;
}

/**
 * Whether the caller is kept from the score now: always in view "withheld"; in view "final" until the episode
 * ends. Everything that would tell it how it is doing (score, components, rewards, the grader's explanations)
 * waits, so trying values until the reward moves is impossible; the evaluator's audit routes still see it.
 */
export function scoreWithheld(view: GradeView, ended: boolean): boolean {
  return view === 'withheld' || (view === 'final' && !ended);
}

/** The observation as the caller's view lets it see it. */
export function presentObservation(task: Task, state: EpisodeState, view: GradeView, ended: boolean = state.done): Observation {
  const observation = observe(task, state);
  return scoreWithheld(view, ended) ? { ...observation, score: null } : observation;
}

export function presentComponents(breakdown: GradeBreakdown): ScoreComponentDto[] {
  return breakdown.components.map((c) => ({
    name: c.name,
    weight: toPoints(c.weight_milli),
    earned: toPoints(c.earned_milli),
    why: c.why,
  }));
}

export function presentReset(task: Task, episode: EpisodeRecord, view: GradeView): ResetResponseDto {
  const { state } = episode;
  const withheld = scoreWithheld(view, false);
  return {
    episode_id: episode.id,
    observation: presentObservation(task, state, view, false),
    reward: 0,
    done: false,
    info: {
      task_id: task.id,
      task_version: episode.taskVersion,
      grader_version: episode.graderVersion,
      feedback: episode.feedback,
      ...instanceOf(episode),
      seed: episode.seed,
      max_steps: state.max_steps,
      score: withheld ? null : toPoints(state.score_milli),
      status: state.status,
      agent: episode.agent,
      run_label: episode.runLabel,
      tags: episode.tags,
      run: episode.runId === null ? null : { run_id: episode.runId, task_id: episode.taskId, seed: episode.seed, trial: episode.runTrial ?? 0 },
    },
  };
}

/**
 * One step's response. With feedback "final" the reward is 0 until the step that ends the episode, which carries
 * the whole score: a sparse reward whose sum over the episode is the score, as the dense rewards' sum is. In view
 * "withheld" that last reward is 0 too, and the score stays null.
 */
export function presentStep(task: Task, episodeId: string, state: EpisodeState, rewardMilli: number, view: GradeView): StepResponseDto {
  const withheld = scoreWithheld(view, state.done);
  const reward = view === 'dense' ? rewardMilli : view === 'final' && state.done ? state.score_milli : 0;
  return {
    episode_id: episodeId,
    observation: presentObservation(task, state, view),
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
  view: GradeView,
  breakdown: GradeBreakdown,
  actions: ActionLogRecord[],
): EpisodeStateDto {
  const { state } = episode;
  const withheld = scoreWithheld(view, episode.status !== 'active');
  return {
    episode_id: episode.id,
    task_id: episode.taskId,
    task_version: episode.taskVersion,
    grader_version: episode.graderVersion,
    feedback: episode.feedback,
    ...instanceOf(episode),
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

export function presentGrade(episode: EpisodeRecord, view: GradeView, breakdown: GradeBreakdown): GradeResponseDto {
  const ended = episode.status !== 'active';
  const withheld = scoreWithheld(view, ended);
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
