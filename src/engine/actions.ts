import type { Priority, ResolutionCode, Team } from './vocabulary';

/** The typed actions an agent can take. HTTP validation (DTOs) guarantees this shape before the engine sees it. */
export type Action =
  | { type: 'open_ticket'; ticket_id: string }
  | { type: 'search_policy'; query: string }
  | { type: 'set_priority'; priority: Priority }
  | { type: 'route_ticket'; team: Team }
  | { type: 'send_reply'; message: string }
  | { type: 'resolve_ticket'; resolution: ResolutionCode; amount?: number };

/** Stable, key-ordered copy of an action, so stored and replayed actions serialize identically. */
export function canonicalAction(action: Action): Action {
  switch (action.type) {
    case 'open_ticket':
      return { type: action.type, ticket_id: action.ticket_id };
    case 'search_policy':
      return { type: action.type, query: action.query };
    case 'set_priority':
      return { type: action.type, priority: action.priority };
    case 'route_ticket':
      return { type: action.type, team: action.team };
    case 'send_reply':
      return { type: action.type, message: action.message };
    case 'resolve_ticket':
      return action.amount === undefined
        ? { type: action.type, resolution: action.resolution }
        : { type: action.type, resolution: action.resolution, amount: action.amount };
  }
}
