import type { Action } from './actions';
import type { EpisodeState, SearchResults } from './state';
import type { Task } from './task.schema';
import { LIMITS, type CustomerTier, type Priority, type Team, type TicketStatus } from './vocabulary';

export interface InboxEntry {
  ticket_id: string;
  subject: string;
  customer_name: string;
  status: TicketStatus;
}

export interface ActiveTicketView {
  ticket_id: string;
  customer: { name: string; tier: CustomerTier; account: string };
  subject: string;
  body: string;
  contract_notes: string[];
  recent_events: { at: string; kind: string; detail: string }[];
  priority: Priority;
  team: Team | null;
  status: TicketStatus;
}

export interface RecentAction {
  step: number;
  action: Action;
  outcome: string;
  error: string | null;
}

export interface Observation {
  task_id: string;
  instruction: string;
  inbox: InboxEntry[];
  active_ticket: ActiveTicketView | null;
  search_results: SearchResults | null;
  recent_actions: RecentAction[];
  /** Score so far; null where the episode's feedback mode withholds it until the end (the service decides). */
  score: number | null;
  step_count: number;
  remaining_steps: number;
  last_action_error: string | null;
}

/** What the agent sees: only what a human agent at a support desk would see. Never the answer key. */
export function observe(task: Task, state: EpisodeState): Observation {
  const tickets = new Map(task.inbox.map((t) => [t.id, t]));
  const active = state.active_ticket_id === null ? undefined : tickets.get(state.active_ticket_id);
  return {
    task_id: task.id,
    instruction: task.instruction,
    inbox: state.inbox_order.map((id) => {
      const ticket = tickets.get(id)!;
      return {
        ticket_id: id,
        subject: ticket.subject,
        customer_name: ticket.customer.name,
        status: state.tickets[id].status,
      };
    }),
    active_ticket: active
      ? {
          ticket_id: active.id,
          customer: { ...active.customer },
          subject: active.subject,
          body: active.body,
          contract_notes: [...active.contract_notes],
          recent_events: active.recent_events.map((e) => ({ ...e })),
          ...state.tickets[active.id],
        }
      : null,
    search_results: state.last_search,
    recent_actions: state.history.slice(-LIMITS.recentActions).map(({ step, action, outcome, error }) => ({
      step,
      action,
      outcome,
      error,
    })),
    score: state.score_milli / 1000,
    step_count: state.step_count,
    remaining_steps: state.max_steps - state.step_count,
    last_action_error: state.last_action_error,
  };
}
