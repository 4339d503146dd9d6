/*
 * What a family may use of the engine: the task's shape, the closed vocabularies, the claim types its answer key
 * declares, and the observation types its reference solver reads. A family imports these from the kit, never from
 * src/engine directly (ARCHITECTURE.md, `family-kit-and-shared-only`), so this list is the whole contract.
 */
export type { Action } from '../../engine/actions';
export type { NearMiss, ReplyClaim } from '../../engine/graders/v2/claims/claim.schema';
export type { TaskLexicon } from '../../engine/graders/v3/claims/lexicon';
export type { ActiveTicketView, Observation } from '../../engine/observation';
export type { SearchHit } from '../../engine/state';
export type { Article, ForbiddenStatement, Task, Ticket } from '../../engine/task.schema';
export {
  PRIORITIES,
  RESOLUTION_CODES,
  TEAMS,
  type CustomerTier,
  type Difficulty,
  type Priority,
  type ResolutionCode,
  type Team,
} from '../../engine/vocabulary';
