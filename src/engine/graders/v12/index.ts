import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 12 (issue 23): version 11 with what the eighth exam set on drawn instances showed it misread
 * (docs/grading.md, "Version 12").
 */
export const graderV12: GraderModule = {
  version: 12,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 12, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
