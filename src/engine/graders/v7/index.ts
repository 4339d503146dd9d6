import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 7 (issue 23): version 6 with what the third exam set on drawn instances showed it misread (docs/grading.md,
 * "Version 7").
 */
export const graderV7: GraderModule = {
  version: 7,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 7, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
