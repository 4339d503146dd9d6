import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 15 (issue 23): version 14 with what the eleventh exam set on drawn instances showed it misread
 * (docs/grading.md, "Version 15").
 */
export const graderV15: GraderModule = {
  version: 15,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 15, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
