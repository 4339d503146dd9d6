import type { Action } from '../engine/actions';
import type { ActiveTicketView, Observation } from '../engine/observation';
import type { Priority, ResolutionCode, Team } from '../engine/vocabulary';

/*
 * The built-in baseline: keyword rules over what the observation shows, nothing else (no answer key, no task
 * files). It is meant to be a floor, not a solution: its playbook comes from the ticket's words, so it never
 * applies what contract notes or a VIP agreement change.
 */

const STOP_WORDS = new Set(
  'a an and are as at be but by can could do for from has have i in is it its my no not of on or our so that the their them they this to was we were what when where which who will with you your'.split(
    ' ',
  ),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((w) => w.length > 2 && !STOP_WORDS.has(w));
}

type Case = 'security' | 'billing' | 'shipping' | 'general';

const CASE_RULES: [Case, RegExp][] = [
  ['security', /password (was )?changed|mfa disabled|didn't|did not|unauthori[sz]ed|hack|api key/],
  ['billing', /charged|charge|refund|twice|payment|invoice/],
  ['shipping', /order|shipment|parcel|tracking|delivery|deliver/],
];

const PLAYBOOK: Record<Case, { priority: Priority; team: Team; resolution: ResolutionCode }> = {
  security: { priority: 'urgent', team: 'security_ops', resolution: 'security_escalation' },
  billing: { priority: 'high', team: 'billing', resolution: 'refund_issued' },
  shipping: { priority: 'high', team: 'logistics', resolution: 'carrier_trace_opened' },
  general: { priority: 'normal', team: 'general_support', resolution: 'information_provided' },
};

function classify(ticket: ActiveTicketView): Case {
  const text = `${ticket.subject} ${ticket.body}`.toLowerCase();
  return CASE_RULES.find(([, pattern]) => pattern.test(text))?.[0] ?? 'general';
}

/** An amount charged more than once in the ticket's events: the likely duplicate. */
function repeatedCharge(ticket: ActiveTicketView): number | undefined {
  const seen = new Map<string, number>();
  for (const event of ticket.recent_events) {
    if (event.kind !== 'charge') continue;
    const amount = event.detail.match(/\$(\d+(?:\.\d{2})?)/)?.[1];
    if (amount) seen.set(amount, (seen.get(amount) ?? 0) + 1);
  }
  const repeated = [...seen.entries()].find(([, count]) => count > 1)?.[0];
  return repeated === undefined ? undefined : Number(repeated);
}

/** The server's input limits, so the agent never sends what it would refuse. */
export interface PolicyLimits {
  maxMessageLength: number;
  maxQueryLength: number;
}

function composeReply(observation: Observation, ticket: ActiveTicketView, kind: Case, limit: number): string {
  const firstName = ticket.customer.name.split(' ')[0];
  const parts = [`Hello ${firstName}, thank you for reaching out and sorry for the trouble.`];
  const amount = kind === 'billing' ? repeatedCharge(ticket) : undefined;
  if (amount !== undefined) parts.push(`We are refunding the duplicate charge of $${amount.toFixed(2)}.`);
  const guidance = observation.search_results?.results[0]?.snippet;
  if (guidance) parts.push(guidance);
  parts.push('We will keep you updated on this ticket.');
  return parts.join(' ').slice(0, limit);
}

/** How many of the instruction's words a ticket's subject, body and notes share. */
function relevance(ticket: ActiveTicketView, instruction: string): number {
  const wanted = new Set(words(instruction));
  const seen = new Set(words(`${ticket.subject} ${ticket.body} ${ticket.contract_notes.join(' ')}`));
  return [...seen].filter((w) => wanted.has(w)).length;
}

/**
 * One agent per episode. It first reads every open ticket (one step each), remembers how well each matches the
 * instruction, then works the best match with its playbook. Deterministic: ties go to the earlier inbox entry.
 */
export class HeuristicAgent {
  private readonly relevanceByTicket = new Map<string, number>();
  private chosen: string | null = null;
  /** How often each action type was taken while working the chosen ticket. */
  private readonly taken = new Map<Action['type'], number>();

  constructor(private readonly limits: PolicyLimits) {}

  act(observation: Observation): Action {
    const ticket = observation.active_ticket;
    if (ticket && !this.relevanceByTicket.has(ticket.ticket_id)) {
      this.relevanceByTicket.set(ticket.ticket_id, relevance(ticket, observation.instruction));
    }
    if (this.chosen === null) {
      const unread = observation.inbox.find(
        (entry) => entry.status !== 'resolved' && !this.relevanceByTicket.has(entry.ticket_id),
      );
      if (unread) return { type: 'open_ticket', ticket_id: unread.ticket_id };
      this.chosen = this.bestTicket(observation);
    }
    if (!ticket || ticket.ticket_id !== this.chosen) return { type: 'open_ticket', ticket_id: this.chosen };
    const action = this.work(observation, ticket);
    this.taken.set(action.type, (this.taken.get(action.type) ?? 0) + 1);
    return action;
  }

  private bestTicket(observation: Observation): string {
    let best = observation.inbox[0].ticket_id;
    let bestScore = -1;
    for (const entry of observation.inbox) {
      const score = this.relevanceByTicket.get(entry.ticket_id) ?? -1;
      if (score > bestScore) {
        best = entry.ticket_id;
        bestScore = score;
      }
    }
    return best;
  }

  private work(observation: Observation, ticket: ActiveTicketView): Action {
    const kind = classify(ticket);
    const playbook = PLAYBOOK[kind];
    const keywords = words(ticket.subject).slice(0, 6).join(' ');
    const searches = this.taken.get('search_policy') ?? 0;
    const query = (text: string): Action => ({ type: 'search_policy', query: text.slice(0, this.limits.maxQueryLength) });
    if (searches === 0) return query(`${ticket.subject} ${ticket.body}`);
    if (searches === 1) return query(`${keywords} what to tell the customer`);
    if (ticket.priority !== playbook.priority) return { type: 'set_priority', priority: playbook.priority };
    if (ticket.team !== playbook.team) return { type: 'route_ticket', team: playbook.team };
    if (!this.taken.has('send_reply')) {
      return { type: 'send_reply', message: composeReply(observation, ticket, kind, this.limits.maxMessageLength) };
    }
    if (playbook.resolution === 'refund_issued') {
      const amount = repeatedCharge(ticket);
      return amount === undefined
        ? { type: 'resolve_ticket', resolution: 'information_provided' }
        : { type: 'resolve_ticket', resolution: 'refund_issued', amount };
    }
    return { type: 'resolve_ticket', resolution: playbook.resolution };
  }
}
