import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 4 (in development, issue 23): version 3 reading replies right on drawn instances — conditions,
 * purposes and preconditions scoped to their clause, one value per slot when a sentence carries several, fragments
 * and asides read as statements. Not released: new episodes keep version 3.
 */
export const graderV4: GraderModule = {
  version: 4,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined && task.answer_key.lexicon !== undefined,
  stateFields: () => ({ grader_version: 4, acts: [], consulted: [] }),
  analyseReply,
  grade,
};
