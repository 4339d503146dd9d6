/**
 * Moved: the claim engine is grader version 2's, in src/engine/graders/v2/claims. This re-export keeps
 * src/episodes/episodes.service.ts building until its import names that folder; then this file goes.
 */
export { readLength } from '../graders/v2/claims';
