import type { Action } from '../engine/actions';
import type { ActiveTicketView, Observation } from '../engine/observation';
import { PRIORITIES, RESOLUTION_CODES, TEAMS, type Priority, type ResolutionCode, type Team } from '../engine/vocabulary';

/*
 * The built-in baseline: it reads, shallowly. It picks the ticket whose words best match the instruction, searches
 * the knowledge base with the ticket's subject, follows the first article that comes back, and takes its decisions
 * from that article's own words ("set the priority to X", "route to Y", "resolve as Z"), the team from the
 * contract notes when the article defers to them, and the amount from the charges or the contract notes. It never
 * sees the answer key. It is meant to be a floor, not a solution: it trusts the first search hit, so it follows the
 * wrong policy whenever a near-miss article ranks first, and its reply says only the amount it found.
 */

const STOP_WORDS = new Set(
  'a an and are as at be but by can could do for from has have i in is it its my no not of on or our so that the their them they this to was we were what when where which who will with you your'.split(
    ' ',
  ),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((w) => w.length > 2 && !STOP_WORDS.has(w));
}

/** The decisions an article states in its own words, each null where it states none. */
export interface ReadPolicy {
  priority: Priority | null;
  team: Team | null;
  resolution: ResolutionCode | null;
  /** The article routes to "the team the customer's agreement names": the contract notes decide. */
  teamFromAgreement: boolean;
}

const TEAM_NAMES: [RegExp, Team][] = TEAMS.map((team) => [new RegExp(`\\b${team.replace(/_/g, '[ _]')}\\b`, 'i'), team]);

/** Reads "Set the priority to urgent", "Priority normal", "route to billing", "resolve as refund_issued". */
export function readPolicy(body: string): ReadPolicy {
  const priority = body.match(/\bpriority (?:to |is |should be )?(low|normal|high|urgent)\b/i)?.[1]?.toLowerCase();
  const resolution = body.match(/\bresolve (?:the ticket |it )?as ([a-z_]+)/i)?.[1];
  const routed = body.match(/\broute(?: the ticket)? to (?:the )?([a-z_ ]+?)(?: team)?(?:[.,;]|$)/im)?.[1] ?? '';
  const team = TEAM_NAMES.find(([pattern]) => pattern.test(routed))?.[1] ?? null;
  return {
    priority: PRIORITIES.find((p) => p === priority) ?? null,
    team,
    resolution: RESOLUTION_CODES.find((code) => code === resolution) ?? null,
    teamFromAgreement: team === null && /\bteam (?:that )?the customer'?s? [^.]*(?:agreement|contract)/i.test(body),
  };
}

/** The team a contract note names ("incidents on this account are owned by the VIP Concierge team"). */
function teamInNotes(ticket: ActiveTicketView): Team | null {
  for (const note of ticket.contract_notes) {
    const hit = TEAM_NAMES.find(([pattern]) => pattern.test(note));
    if (hit) return hit[1];
  }
  return null;
}

/** An amount charged more than once in the ticket's events: the likely duplicate. */
function repeatedCharge(ticket: ActiveTicketView): number | undefined {
  const seen = new Map<string, number>();
  for (const event of ticket.recent_events) {
    const amount = event.detail.match(/\$(\d[\d,]*(?:\.\d{2})?)/)?.[1]?.replace(/,/g, '');
    if (amount && /paid|charge/i.test(`${event.kind} ${event.detail}`)) seen.set(amount, (seen.get(amount) ?? 0) + 1);
  }
  const repeated = [...seen.entries()].find(([, count]) => count > 1)?.[0];
  return repeated === undefined ? undefined : Number(repeated);
}

/** A credit the contract notes grant ("a shipping credit of $150.00 per incident"). */
function creditInNotes(ticket: ActiveTicketView): number | undefined {
  for (const note of ticket.contract_notes) {
    const amount = note.match(/credit of \$(\d[\d,]*(?:\.\d{2})?)/i)?.[1];
    if (amount) return Number(amount.replace(/,/g, ''));
  }
  return undefined;
}

/** The server's input limits, so the agent never sends what it would refuse. */
export interface PolicyLimits {
  maxMessageLength: number;
  maxQueryLength: number;
}

const money = (amount: number) => `$${amount.toFixed(2)}`;

/** A short reply: the amount the baseline found, said for what it is; nothing copied from the article. */
function composeReply(ticket: ActiveTicketView, resolution: ResolutionCode | null, amount: number | undefined, limit: number): string {
  const firstName = ticket.customer.name.split(' ')[0];
  const parts = [`Hello ${firstName}, thank you for reaching out and sorry for the trouble.`];
  if (amount !== undefined && resolution === 'refund_issued') parts.push(`We have refunded the duplicate charge of ${money(amount)} to your card.`);
  if (amount !== undefined && resolution === 'credit_issued') parts.push(`We have applied an account credit of ${money(amount)}.`);
  if (amount !== undefined && resolution === 'replacement_dispatched') parts.push(`We have applied a shipping credit of ${money(amount)} to your account.`);
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
 * instruction, then works the best match as the article it finds says. Deterministic: ties go to the earlier inbox entry.
 */
export class HeuristicAgent {
  private readonly relevanceByTicket = new Map<string, number>();
  private chosen: string | null = null;
  /** How often each action type was taken while working the chosen ticket. */
  private readonly taken = new Map<Action['type'], number>();
  /** What the first search's top article says to do, read once. */
  private policy: ReadPolicy | null = null;

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
    if (!this.taken.has('search_policy')) {
      // The subject's words: the customer's own terms for the case.
      const query = [...new Set(words(ticket.subject))].slice(0, 8).join(' ');
      return { type: 'search_policy', query: (query || ticket.subject).slice(0, this.limits.maxQueryLength) };
    }
    this.policy ??= readPolicy(observation.search_results?.results[0]?.body ?? '');
    const { priority, resolution } = this.policy;
    const team = this.policy.team ?? (this.policy.teamFromAgreement ? teamInNotes(ticket) : null);
    if (priority && !this.taken.has('set_priority')) return { type: 'set_priority', priority };
    if (team && !this.taken.has('route_ticket')) return { type: 'route_ticket', team };
    const amount = resolution === 'replacement_dispatched' ? creditInNotes(ticket) : repeatedCharge(ticket);
    if (!this.taken.has('send_reply')) return { type: 'send_reply', message: composeReply(ticket, resolution, amount, this.limits.maxMessageLength) };
    if (resolution === 'refund_issued' || resolution === 'credit_issued') {
      return amount === undefined ? { type: 'resolve_ticket', resolution: 'information_provided' } : { type: 'resolve_ticket', resolution, amount };
    }
    if (resolution === 'replacement_dispatched') return { type: 'resolve_ticket', resolution, ...(amount === undefined ? {} : { amount }) };
    return { type: 'resolve_ticket', resolution: resolution ?? 'information_provided' };
  }
}
