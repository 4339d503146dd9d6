import type { GraderModule } from '../grader-module';
import { grade, WEIGHTS } from './grade';

/** Grader version 1 (release 0.1): phrase-list reply details. Released: frozen (src/engine/grader-version.ts). */
export const graderV1: GraderModule = {
  version: 1,
  weights: WEIGHTS,
  grades: (task) => task.answer_key.reply_claims === undefined,
  // Nothing: states of version 1 carry no grader version, so those stored by release 0.1 replay byte for byte.
  stateFields: () => ({}),
  grade,
};
