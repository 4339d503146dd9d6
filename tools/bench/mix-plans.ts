import type { MixLoadPlan } from './bench.commands';

/*
 * What the side-by-side benchmark's clients send. Actions are plain JSON, typed loosely on purpose: the same plans
 * go to the anchor, whose action set is the original one.
 */

export type BenchAction = { type: string } & Record<string, unknown>;

/** What a reset answers, as far as the plans read it (this server's observation, or the anchor's). */
export interface ResetView {
  episode_id: string;
  observation: {
    instruction?: string;
    inbox?: Array<{ ticket_id: string; subject?: string; customer_name?: string; status?: string }>;
  };
}

/** Every task this server draws instances of (those with a family): the realistic mix resets each in turn. */
export async function taskIdsOf(base: string, headers: Record<string, string>): Promise<string[]> {
  const res = await fetch(`${base}/tasks`, { headers });
  const body = (await res.json()) as { tasks: Array<{ id: string; family: unknown }> };
  const ids = body.tasks.filter((task) => task.family !== null && task.family !== undefined).map((task) => task.id);
  if (ids.length === 0) throw new Error(`${base}/tasks lists no task with a family`);
  return ids;
}

/** The actions an episode's client sends after its reset, in order (the kit's repeat until the episode ends). */
export function actionsFor(plan: MixLoadPlan, view: ResetView): BenchAction[] {
  const inbox = view.observation.inbox ?? [];
  if (plan === 'kit') return kitActions(inbox[0]?.ticket_id ?? 'T-0');
  const ticket = inbox.find((t) => t.status === undefined || t.status === 'open') ?? inbox[0] ?? { ticket_id: 'T-0' };
  return mixActions(ticket, plan === 'mix' ? 'information_provided' : 'escalated');
}

/** The shared kit's fixed mix (loadgen.mjs), verbatim. */
function kitActions(ticketId: string): BenchAction[] {
  return [
    { type: 'open_ticket', ticket_id: ticketId },
    { type: 'search_policy', query: 'refund duplicate charge settlement window' },
    { type: 'set_priority', priority: 'high' },
    { type: 'search_policy', query: 'account takeover password' },
    { type: 'send_reply', message: 'We have approved your refund; it settles in 5-7 business days. Please reset your password.' },
    { type: 'search_policy', query: 'shipping credit replacement' },
  ];
}

/**
 * An agent working a case: opens the ticket that needs action, searches the knowledge base twice (the ticket's
 * subject, then the policy it needs), sets priority and team, replies at the length real replies have (about 600
 * characters, several claims: amounts, days, steps, what happens next; graded), and resolves, which ends the
 * episode. Seven steps and a reset.
 */
function mixActions(ticket: { ticket_id: string; subject?: string; customer_name?: string }, resolution: string): BenchAction[] {
  const subject = ticket.subject ?? 'your request';
  const name = ticket.customer_name ?? 'there';
  return [
    { type: 'open_ticket', ticket_id: ticket.ticket_id },
    { type: 'search_policy', query: subject.slice(0, 120) },
    { type: 'search_policy', query: 'refund window eligibility policy exceptions' },
    { type: 'set_priority', priority: 'high' },
    { type: 'route_ticket', team: 'billing' },
    { type: 'send_reply', message: reply(name, subject) },
    { type: 'resolve_ticket', resolution },
  ];
}

function reply(name: string, subject: string): string {
  return [
    `Hi ${name},`,
    `thank you for writing to us about "${subject}", and I am sorry for the trouble this has caused.`,
    'I have checked your account and the charges on it against our policy.',
    'The duplicate payment of $49.00 has been refunded to the card you paid with; refunds settle within 5-7 business days,',
    'so you should see it on your statement by Friday.',
    'For your security I have also signed out all active sessions; please reset your password and turn on two-factor authentication.',
    'If anything still looks wrong after that, reply to this message and we will pick it up straight away.',
    'Kind regards, Support',
  ].join(' ');
}
