import { ApiProperty } from '@nestjs/swagger';
import type { Action } from '../../engine/actions';
import type {
  ActiveTicketView,
  InboxEntry,
  Observation,
  RecentAction,
} from '../../engine/observation';
import type { SearchHit, SearchResults } from '../../engine/state';
import {
  CUSTOMER_TIERS,
  PRIORITIES,
  TEAMS,
  TICKET_STATUSES,
  type CustomerTier,
  type Priority,
  type Team,
  type TicketStatus,
} from '../../engine/vocabulary';
import { actionPropertyOptions } from './action-ref';

// Response classes document the engine's observation; `implements` keeps them in step with it at compile time.

export class InboxEntryDto implements InboxEntry {
  ticket_id!: string;
  subject!: string;
  customer_name!: string;
  @ApiProperty({ enum: TICKET_STATUSES, enumName: 'TicketStatus' })
  status!: TicketStatus;
}

export class CustomerDto {
  name!: string;
  @ApiProperty({ enum: CUSTOMER_TIERS, enumName: 'CustomerTier' })
  tier!: CustomerTier;
  /** Account number. */
  account!: string;
}

export class TicketEventDto {
  /** ISO-8601 UTC time of the event. */
  at!: string;
  /** What kind of event: charge, login, carrier_scan, … */
  kind!: string;
  detail!: string;
}

export class ActiveTicketDto implements ActiveTicketView {
  ticket_id!: string;
  customer!: CustomerDto;
  subject!: string;
  body!: string;
  contract_notes!: string[];
  recent_events!: TicketEventDto[];
  @ApiProperty({ enum: PRIORITIES, enumName: 'Priority' })
  priority!: Priority;
  @ApiProperty({ enum: TEAMS, enumName: 'Team', nullable: true, type: String })
  team!: Team | null;
  @ApiProperty({ enum: TICKET_STATUSES, enumName: 'TicketStatus' })
  status!: TicketStatus;
}

export class SearchHitDto implements SearchHit {
  article_id!: string;
  title!: string;
  /** The sentence of the article that best matches the query. */
  snippet!: string;
  /** The whole article. */
  body!: string;
  /** BM25 relevance, rounded to 3 decimals; results are sorted by it, ties by article id. */
  score!: number;
}

export class SearchResultsDto implements SearchResults {
  query!: string;
  results!: SearchHitDto[];
}

export class RecentActionDto implements RecentAction {
  step!: number;
  @ApiProperty(actionPropertyOptions('The action as applied.'))
  action!: Action;
  /** What happened, e.g. "opened ticket T-1041" or "not applied". */
  outcome!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Why the action could not apply, or null.' })
  error!: string | null;
}

export class ObservationDto implements Observation {
  task_id!: string;
  /** What the agent is asked to do. */
  instruction!: string;
  /** Every ticket in the inbox, in this episode's order. */
  inbox!: InboxEntryDto[];
  @ApiProperty({ type: () => ActiveTicketDto, nullable: true, description: 'The opened ticket in full, or null.' })
  active_ticket!: ActiveTicketDto | null;
  @ApiProperty({ type: () => SearchResultsDto, nullable: true, description: 'The latest search, or null.' })
  search_results!: SearchResultsDto | null;
  /** The last few actions, oldest first. */
  recent_actions!: RecentActionDto[];
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Score so far, 0 to 1; null while an episode started with feedback "final" runs (given once it has ended), and always (withheld) for a test-split episode seen by an agent key.',
  })
  score!: number | null;
  step_count!: number;
  remaining_steps!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last action could not apply, or null.' })
  last_action_error!: string | null;
}
