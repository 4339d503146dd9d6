import type { Action } from './actions';
import type { StoredReplyAnalysis } from './graders/v2/claims/stored-analysis';
import type { GraderVersion } from './grader-version';
import type { Priority, ResolutionCode, Team, TicketStatus } from './vocabulary';

export type EpisodeStatus = 'active' | 'resolved' | 'out_of_steps';

/** The mutable fields of a ticket; everything else is read from the task. */
export interface TicketState {
  priority: Priority;
  team: Team | null;
  status: TicketStatus;
}

export interface SearchHit {
  article_id: string;
  title: string;
  /** The sentence that best matches the query, for scanning. */
  snippet: string;
  /** The whole article: agents must be able to read the policy they follow. */
  body: string;
  score: number;
}

export interface SearchResults {
  query: string;
  results: SearchHit[];
}

export interface ReplyRecord {
  step: number;
  ticket_id: string;
  message: string;
  /** Grader version 2: the reply's analysis, made once when it was sent (absent under version 1). */
  analysis?: StoredReplyAnalysis;
}

export interface ResolutionRecord {
  step: number;
  ticket_id: string;
  code: ResolutionCode;
  amount?: number;
}

/** What the agent did to a ticket (grader version 2): the decisions it committed to and any collateral. */
export interface TicketAct {
  step: number;
  ticket_id: string;
  kind: 'priority' | 'team' | 'reply' | 'resolve';
  /** The priority or team set. */
  value?: string;
}

export interface HistoryEntry {
  step: number;
  action: Action;
  outcome: string;
  error: string | null;
  reward_milli: number;
  score_after_milli: number;
}

/**
 * Everything the engine remembers about an episode. Plain JSON so it can be stored as a snapshot and compared
 * bit for bit with a replay.
 */
export interface EpisodeState {
  task_id: string;
  /** The grader that scores this episode, fixed at reset; absent in states of version 1 (earlier releases). */
  grader_version?: Exclude<GraderVersion, 1>;
  seed: number;
  max_steps: number;
  /** Inbox order for this episode: the seed shuffles it so the target is not always in the same place. */
  inbox_order: string[];
  step_count: number;
  done: boolean;
  status: EpisodeStatus;
  active_ticket_id: string | null;
  opened_ticket_ids: string[];
  tickets: Record<string, TicketState>;
  /** Every article that has appeared in a search result, in first-seen order. */
  surfaced_article_ids: string[];
  last_search: SearchResults | null;
  replies: ReplyRecord[];
  resolution: ResolutionRecord | null;
  history: HistoryEntry[];
  score_milli: number;
  last_action_error: string | null;
  /** Grader version 2: every change, reply and resolution, with its ticket, in order. */
  acts?: TicketAct[];
  /** Grader version 2: the articles that came out on top for a query that tells articles apart. */
  consulted?: string[];
}

/**
 * A record for keys that come from outside (ticket ids): no prototype, so "__proto__", "constructor" or
 * "toString" are plain missing keys rather than doors into the built-ins every tenant shares.
 */
export function emptyRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * The state of a ticket of this episode, or undefined for any id that is not one. Own keys only: a snapshot read
 * back from JSON is an ordinary object, whose inherited members must never count as tickets.
 */
export function ticketStateOf(state: EpisodeState, ticketId: string): TicketState | undefined {
  return Object.hasOwn(state.tickets, ticketId) ? state.tickets[ticketId] : undefined;
}
