import type { Action } from '../engine/actions';
import type { ActiveTicketView, Observation } from '../engine/observation';
import type { Priority, ResolutionCode, Team } from '../engine/vocabulary';

/*
 * The built-in baseline: keyword rules over what the observation shows, nothing else (no answer key, no task
 * files). Stateless: the next action is a function of the observation alone, so runs are reproducible.
 * It is meant to be a floor, not a solution: it reads subjects and bodies, not contract notes.
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

/** Opens the unresolved ticket whose subject shares the most words with the instruction (first on ties). */
function pickTicket(observation: Observation): string {
  const wanted = new Set(words(observation.instruction));
  let best = observation.inbox[0].ticket_id;
  let bestScore = -1;
  for (const entry of observation.inbox) {
    if (entry.status === 'resolved') continue;
    const score = words(entry.subject).filter((w) => wanted.has(w)).length;
    if (score > bestScore) {
      best = entry.ticket_id;
      bestScore = score;
    }
  }
  return best;
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

function composeReply(observation: Observation, ticket: ActiveTicketView, kind: Case): string {
  const firstName = ticket.customer.name.split(' ')[0];
  const parts = [`Hello ${firstName}, thank you for reaching out and sorry for the trouble.`];
  const amount = kind === 'billing' ? repeatedCharge(ticket) : undefined;
  if (amount !== undefined) parts.push(`We are refunding the duplicate charge of $${amount.toFixed(2)}.`);
  const guidance = observation.search_results?.results[0]?.snippet;
  if (guidance) parts.push(guidance);
  parts.push('We will keep you updated on this ticket.');
  return parts.join(' ').slice(0, 2000);
}

const succeeded = (observation: Observation, type: Action['type']) =>
  observation.recent_actions.filter((a) => a.action.type === type && a.error === null).length;

export function heuristicPolicy(observation: Observation): Action {
  const ticket = observation.active_ticket;
  if (!ticket) return { type: 'open_ticket', ticket_id: pickTicket(observation) };

  const kind = classify(ticket);
  const playbook = PLAYBOOK[kind];
  const keywords = words(ticket.subject).slice(0, 6).join(' ');
  const searches = succeeded(observation, 'search_policy');
  if (searches === 0) return { type: 'search_policy', query: `${ticket.subject} ${ticket.body}`.slice(0, 200) };
  if (searches === 1) return { type: 'search_policy', query: `${keywords} what to tell the customer`.slice(0, 200) };
  if (ticket.priority !== playbook.priority) return { type: 'set_priority', priority: playbook.priority };
  if (ticket.team !== playbook.team) return { type: 'route_ticket', team: playbook.team };
  if (succeeded(observation, 'send_reply') === 0) {
    return { type: 'send_reply', message: composeReply(observation, ticket, kind) };
  }
  if (playbook.resolution === 'refund_issued') {
    const amount = repeatedCharge(ticket);
    return amount === undefined
      ? { type: 'resolve_ticket', resolution: 'information_provided' }
      : { type: 'resolve_ticket', resolution: 'refund_issued', amount };
  }
  return { type: 'resolve_ticket', resolution: playbook.resolution };
}
