import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 16 (issue 23): version 15 with what the twelfth exam set on drawn instances showed it misread
 * (docs/grading.md, "Version 16").
 */
export const graderV16: GraderModule = {
  version: 16,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 16, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
