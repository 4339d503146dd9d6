import type { ComponentWeights, GradeBreakdown } from '../grade-breakdown';
import type { EpisodeState, ReplyRecord } from '../state';
import type { Task } from '../task.schema';

/** Everything a grader version decides. The engine and the grader ask the registry for it; they never test a version number. */
export interface GraderModule {
  version: number;
  weights: ComponentWeights;
  /** Whether the version can grade the task (its reply details are written in the form the version reads). */
  grades(task: Task): boolean;
  /** What a state started under the version records besides the common fields (key order is the stored state's). */
  stateFields(): Pick<EpisodeState, 'grader_version' | 'acts' | 'consulted'>;
  /** What is stored with a reply when it is sent (its analysis), if the version stores anything. */
  analyseReply?(task: Task, ticketId: string, message: string): NonNullable<ReplyRecord['analysis']>;
  /** Scores the state as it stands. */
  grade(task: Task, state: EpisodeState): GradeBreakdown;
}
