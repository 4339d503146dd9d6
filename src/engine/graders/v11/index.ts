import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 11 (issue 23): version 10 with what the seventh exam set on drawn instances showed it misread
 * (docs/grading.md, "Version 11").
 */
export const graderV11: GraderModule = {
  version: 11,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 11, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
