import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 13 (issue 23): version 12 with what the ninth exam set on drawn instances showed it misread
 * (docs/grading.md, "Version 13").
 */
export const graderV13: GraderModule = {
  version: 13,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 13, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
