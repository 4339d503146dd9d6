import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 9 (issue 23): version 8 with what the fifth exam set on drawn instances showed it misread (docs/grading.md,
 * "Version 9").
 */
export const graderV9: GraderModule = {
  version: 9,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 9, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
