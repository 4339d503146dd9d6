import type { Task } from './task.schema';

/**
 * The graders an episode can be scored with. An episode keeps the version it started with for its whole life
 * (it is in its state), so its record replays to the same scores whatever graders came after it:
 * - 1: reply details as phrase lists (task versions stored by earlier releases);
 * - 2: reply details as typed claims, judged with polarity and one value per slot (src/engine/claims).
 * A change that alters any analysis or verdict of an existing version is a new version, not an edit
 * (test/validity pins version 2's verdicts on the validity fixtures).
 */
export const GRADER_VERSIONS = [1, 2] as const;
export type GraderVersion = (typeof GRADER_VERSIONS)[number];
export const CURRENT_GRADER_VERSION: GraderVersion = 2;

/** The grader a task's reply details are written for: claims need version 2, phrase lists are version 1's. */
export function graderVersionOf(task: Task): GraderVersion {
  return task.answer_key.reply_claims !== undefined ? 2 : 1;
}
