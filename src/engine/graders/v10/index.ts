import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 10 (issue 23): version 9 with what the sixth exam set on drawn instances showed it misread (docs/grading.md,
 * "Version 10").
 */
export const graderV10: GraderModule = {
  version: 10,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 10, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
