import type { GradeBreakdown } from './grade-breakdown';
import { CURRENT_GRADER_VERSION, GRADERS, graderOfState } from './graders';
import type { EpisodeState } from './state';
import type { Task } from './task.schema';

export type { ComponentGrade, ComponentName, GradeBreakdown, PenaltyGrade, PenaltyKind, ReplyDetailVerdict } from './grade-breakdown';
export { COMPONENT_NAMES, PENALTY_KINDS } from './grade-breakdown';
export { graderVersionOfState } from './graders';

/** The current grader version's reward weights in milli-points (what the API documents); each version has its own. */
export const COMPONENT_WEIGHTS = GRADERS[CURRENT_GRADER_VERSION].module.weights;

/**
 * Scores the state as it stands, with the grader version the episode was started with (src/engine/graders).
 * Explanations never reveal the expected answer, so an agent that calls the grader mid-episode learns whether it
 * is right, not what is right.
 */
export function grade(task: Task, state: EpisodeState): GradeBreakdown {
  return graderOfState(state).grade(task, state);
}
