import type { Action } from '../../src/engine/actions';
import type { ActiveTicketView } from '../../src/engine/observation';
import type { Task } from '../../src/engine/task.schema';
import type { Priority, ResolutionCode, Team } from '../../src/engine/vocabulary';

/*
 * A shortcut agent's decision (tools/validity/shortcuts.ts): everything the answer key fixes that an agent must
 * choose. Priority, team and resolution code are literal. The amount is a rule: the one the ticket's own events
 * show when the key's amount is that (billing's duplicate charge appears twice), else the literal figure (a
 * shipping credit written only in the contract notes). The case kind names how the reply and the searches are
 * worked: as the reference solver works a case of that kind (its `caseKinds`, `readCaseAs`).
 */

export type AmountRule = { rule: 'none' } | { rule: 'repeated_amount' } | { rule: 'literal'; value: number };

export interface Decision {
  priority: Priority;
  team: Team;
  code: ResolutionCode;
  amount: AmountRule;
  kind: string;
}

/** Dollar figures in the ticket's recent events, as numbers ("$1,440.00" → 1440). */
function eventAmounts(ticket: ActiveTicketView): number[] {
  return ticket.recent_events.flatMap((e) => [...e.detail.matchAll(/\$(\d[\d,]*(?:\.\d{2})?)/g)].map((m) => Number(m[1].replace(/,/g, ''))));
}

/** The largest amount the ticket's events show more than once, if any. */
function repeatedAmount(ticket: ActiveTicketView): number | undefined {
  const amounts = eventAmounts(ticket);
  const repeated = amounts.filter((a, i) => amounts.indexOf(a) !== i);
  return repeated.length > 0 ? Math.max(...repeated) : undefined;
}

export function amountFor(rule: AmountRule, ticket: ActiveTicketView): number | undefined {
  if (rule.rule === 'literal') return rule.value;
  return rule.rule === 'repeated_amount' ? repeatedAmount(ticket) : undefined;
}

/** The rule a train instance's amount follows: the ticket's repeated amount when that is it, else the figure. */
export function amountRuleOf(amount: number | undefined, ticket: ActiveTicketView): AmountRule {
  if (amount === undefined) return { rule: 'none' };
  return repeatedAmount(ticket) === amount ? { rule: 'repeated_amount' } : { rule: 'literal', value: amount };
}

/** What the answer key of a train instance asks, with the kind the reference solver read the case as. */
export function decisionOf(key: Task['answer_key'], ticket: ActiveTicketView, kind: string): Decision {
  return { priority: key.priority, team: key.team, code: key.resolution.code, amount: amountRuleOf(key.resolution.amount, ticket), kind };
}

export function describeDecision(d: Decision): string {
  const amount = d.amount.rule === 'none' ? '' : d.amount.rule === 'literal' ? ` $${d.amount.value}` : ' (the repeated charge)';
  return `${d.priority}, ${d.team}, ${d.code}${amount}, worked as ${d.kind}`;
}

/** One string per distinct decision. */
export const decisionId = (d: Decision): string => describeDecision(d);

/** The decision's acts on the open target ticket, the reply apart (its wording comes from the case kind). */
export function decisionActions(d: Decision, ticket: ActiveTicketView): Action[] {
  const amount = amountFor(d.amount, ticket);
  return [
    { type: 'set_priority', priority: d.priority },
    { type: 'route_ticket', team: d.team },
    { type: 'resolve_ticket', resolution: d.code, ...(amount === undefined ? {} : { amount }) },
  ];
}
