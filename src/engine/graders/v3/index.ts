import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 3: version 2's claim engine with every domain word taken out of it.
 * Support-work concepts shared by all families come from support-vocabulary.ts; what only one family's content
 * needs comes from the task (`answer_key.lexicon`, written by the family's generator into the instance, so a replay
 * needs nothing else). It grades only tasks that declare a lexicon; older task versions keep the version they had.
 */
export const graderV3: GraderModule = {
  version: 3,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 3, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
