import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';
import { analyseReply } from './reply-grading';

/**
 * Grader version 2: reply details as typed claims (claims/), penalties, decisions as commitments, articles consulted
 * by a query that tells them apart. Released: frozen (src/engine/grader-version.ts).
 */
export const graderV2: GraderModule = {
  version: 2,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims !== undefined,
  stateFields: () => ({ grader_version: 2, acts: [], consulted: [] }),
  analyseReply,
  grade,
};

