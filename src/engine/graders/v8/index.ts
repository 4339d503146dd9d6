import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 8 (issue 23): version 7 with what the fourth exam set on drawn instances showed it misread (docs/grading.md,
 * "Version 8").
 */
export const graderV8: GraderModule = {
  version: 8,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 8, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
