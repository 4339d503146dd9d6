import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 14 (issue 23): version 13 with what the tenth exam set on drawn instances showed it misread
 * (docs/grading.md, "Version 14").
 */
export const graderV14: GraderModule = {
  version: 14,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 14, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
