import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 5 (issue 23): version 4 with what the first exam set on drawn instances showed it misread - a
 * condition on the customer's own sessions, "one"/"any"/"its" standing for the object, where a thing is told as
 * advice, advice offered or aimed at, list items under their lead-in, purposes after the main clause, our act in a
 * "before" clause, a doubt after an aside (docs/grading.md, "Version 5").
 */
export const graderV5: GraderModule = {
  version: 5,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 5, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
