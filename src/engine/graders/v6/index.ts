import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 6 (issue 23): version 5 with what the second exam set on drawn instances showed it misread (docs/grading.md,
 * "Version 6").
 */
export const graderV6: GraderModule = {
  version: 6,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 6, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
