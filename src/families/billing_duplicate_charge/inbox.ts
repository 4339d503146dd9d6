import type { Ticket } from '../kit';
import { ordinal, usdFromCents } from '../shared';
import { dayMonthOf, daysBetween, sameMonth } from './calendar';
import type { AddOnQuestion, Cancellation, CycleQuestion, Facts, Plan, ResolvedDuplicate, SideTicket, TargetCase } from './facts';

/**
 * The inbox of one instance, written from its facts: the target (a charge the gateway retry doubled), the same
 * customer's unrelated ticket, another customer's duplicate already put right, a cancellation refund request, a
 * billing-cycle question and, on some instances, a question about a small pro-rated charge. The target's plan type
 * is stated only in its contract notes; its body and events never say whether the plan is billed by the year or by
 * the month.
 */
export function buildInbox(facts: Facts): Ticket[] {
  const tickets = [
    targetTicket(facts.target, facts.clockDate),
    sideTicket(facts.side, facts.target),
    resolvedTicket(facts.resolved),
    cancellationTicket(facts.cancellation),
    questionTicket(facts.question),
  ];
  if (facts.addOnQuestion) tickets.push(addOnQuestionTicket(facts.addOnQuestion));
  return tickets;
}

/** "Plan: Team Annual, $3,480.00 per year, 12 seats, renews 2026-11-03." */
export function planNote(plan: Plan, renewal: string): string {
  const renews = plan.type === 'annual' ? `renews ${renewal}` : `renews on the ${ordinal(Number(renewal.slice(8, 10)))} of each month`;
  return `Plan: ${plan.name}, ${usdFromCents(plan.priceCents)} per ${plan.type === 'annual' ? 'year' : 'month'}, ${seatCount(plan.seats)}, ${renews}.`;
}

function seatCount(n: number): string {
  return n === 1 ? '1 seat' : `${n} seats`;
}

/** What the customer calls the doubled charge, and what they call it the second time. */
function chargeWords(t: TargetCase, clockDate: string): [string, string] {
  switch (t.wording) {
    case 'renewal':
      return ['the renewal payment', 'the renewal'];
    case 'month':
      return [`${sameMonth(t.renewal, clockDate) ? 'this' : 'last'} month's payment`, 'that payment'];
    default:
      return [['our subscription payment', 'the payment for our plan', 'the charge for our plan'][t.bodyVariant], 'the plan itself'];
  }
}

export function targetSubject(t: TargetCase, clockDate: string): string {
  const when = sameMonth(t.renewal, clockDate) ? 'this month' : 'last month';
  const subjects: Record<TargetCase['wording'], string[]> = {
    neutral: ['Charged twice for our subscription??', 'Double charge on the company card', 'Why were we billed twice?', 'Duplicate payment taken from our card'],
    renewal: ['Charged twice for our renewal??', 'Renewal payment taken twice', 'Double charge for the renewal', 'Why was the renewal billed twice?'],
    month: [`Charged twice ${when}??`, `Double payment ${when}`, `Billed twice ${when}`, `Duplicate payment ${when}`],
  };
  return subjects[t.wording][t.subjectVariant];
}

const MOODS = [
  'That nearly maxed out the card.',
  'Our finance team spotted it this morning and they are not thrilled.',
  'This is the second billing problem I have had to chase this quarter.',
  'We are a small team and that is a lot of money to have tied up.',
];

export function targetBody(t: TargetCase, clockDate: string): string {
  const [charge, again] = chargeWords(t, clockDate);
  const amount = t.statesAmount ? ` - two charges of ${usdFromCents(t.plan.priceCents)}, a few minutes apart` : '';
  const seats = t.addOn.seats === 1 ? 'a seat' : `${t.addOn.seats} seats`;
  const added = t.datesAddOn ? `We added ${seats} on ${dayMonthOf(t.addOn.date)}` : `We added ${seats} a little while ago`;
  const opening = [
    `Hi, I just checked the company card and it looks like you took ${charge} twice${amount}.`,
    `Hello, our card statement shows ${charge} went through twice${amount}.`,
    `Hi there, I was going through the card transactions and you have taken ${charge} twice${amount}.`,
  ][t.bodyVariant];
  return (
    `${opening} ${added}, so I expected that smaller extra charge, but not ${again} two times. ${MOODS[t.moodVariant]} ` +
    `Please sort this out and tell me when I'll see the money back. - ${t.customer.name}, ${t.customer.role}`
  );
}

/** "Team plan, 12 seats, billing period from 2026-11-03": the same line for the charge and its retry. */
function periodCharge(t: TargetCase, invoice: string): string {
  return `Invoice ${invoice} paid: ${usdFromCents(t.plan.priceCents)} ${t.plan.tier} plan, ${seatCount(t.plan.seats)}, billing period from ${t.renewal} (${t.card.brand} ${t.card.last4})`;
}

function targetTicket(t: TargetCase, clockDate: string): Ticket {
  const events: Ticket['recent_events'] = [
    { at: t.addOn.at, kind: 'charge', detail: `Invoice ${t.addOn.invoice} paid: ${usdFromCents(t.addOn.cents)} pro-rated seat add-on, ${seatCount(t.addOn.seats)} (${t.card.brand} ${t.card.last4})` },
    { at: t.originalAt, kind: 'charge', detail: periodCharge(t, t.originalInvoice) },
    { at: t.timeoutAt, kind: 'gateway', detail: 'Payment gateway timeout on confirmation; automatic retry scheduled' },
    { at: t.duplicateAt, kind: 'charge', detail: periodCharge(t, t.duplicateInvoice) },
    { at: t.renewedAt, kind: 'subscription', detail: 'Subscription renewed' },
  ];
  if (t.signInAt) events.push({ at: t.signInAt, kind: 'login', detail: 'Admin sign-in from a known device' });
  return {
    id: t.ticketId,
    customer: { name: t.customer.name, tier: t.customer.tier, account: t.customer.account },
    subject: targetSubject(t, clockDate),
    body: targetBody(t, clockDate),
    contract_notes: [
      planNote(t.plan, t.renewal),
      `Payment method on file: ${t.card.brand} ending ${t.card.last4}.`,
      `Seat add-on bought ${t.addOn.date} (${seatCount(t.addOn.seats)}), billed pro rata up to the renewal.`,
    ],
    recent_events: events,
    priority: t.preset.priority,
    team: t.preset.team,
    status: 'open',
  };
}

/** The same customer, a different problem: it needs its own handling, not this episode's. */
function sideTicket(s: SideTicket, t: TargetCase): Ticket {
  const [subject, body, events] = sideIssue(s, t);
  return {
    id: s.ticketId,
    customer: { name: t.customer.name, tier: t.customer.tier, account: t.customer.account },
    subject,
    body,
    contract_notes: [planNote(t.plan, t.renewal)],
    recent_events: events,
    priority: s.preset,
    team: null,
    status: 'open',
  };
}

function sideIssue(s: SideTicket, t: TargetCase): [string, string, Ticket['recent_events']] {
  switch (s.issue) {
    case 'pdf_export':
      return [
        'Invoice PDF export button does nothing',
        `Hello, when I click 'Download PDF' on the invoices page nothing happens. Tried Chrome and Firefox. Our accountant needs copies of our invoices by Friday. Thanks, ${t.customer.first}`,
        [{ at: s.at, kind: 'ui_error', detail: `invoices.export_pdf returned 500 (request id ${s.requestId})` }],
      ];
    case 'billing_contact':
      return [
        'Please send invoices to our accounts inbox',
        `Hi, could you change the billing contact on our account so invoices go to accounts@${t.customer.domain} instead of my own address? Thanks, ${t.customer.first}`,
        [{ at: s.at, kind: 'settings', detail: 'Billing contact page viewed; no change saved' }],
      ];
    case 'tax_id':
      return [
        'Please add our VAT number to invoices',
        `Hello, our finance team needs our VAT number (${s.vatNumber}) shown on all future invoices. Can you add it? Regards, ${t.customer.first}`,
        [],
      ];
  }
}

/** Another customer's duplicate, put right under their own plan's policy by an agent days ago. */
function resolvedTicket(r: ResolvedDuplicate): Ticket {
  const annual = r.plan.type === 'annual';
  const paid = (invoice: string) => `Invoice ${invoice} paid: ${usdFromCents(r.plan.priceCents)} ${r.plan.name} (${r.card.brand} ${r.card.last4})`;
  const remedy = annual
    ? `Refund of ${usdFromCents(r.plan.priceCents)} issued to ${r.card.brand} ${r.card.last4} for duplicate ${r.duplicateInvoice} (agent: ${r.agent})`
    : `Account credit of ${usdFromCents(r.plan.priceCents)} applied for duplicate ${r.duplicateInvoice} (agent: ${r.agent})`;
  return {
    id: r.ticketId,
    customer: { name: r.customer.name, tier: r.customer.tier, account: r.customer.account },
    subject: annual ? 'Charged twice for my annual renewal' : 'Double charge on my monthly plan',
    body: `I was charged ${usdFromCents(r.plan.priceCents)} twice on ${dayMonthOf(r.renewal)} for my ${r.plan.name} plan. Please fix.`,
    contract_notes: [`Plan: ${r.plan.name}, ${usdFromCents(r.plan.priceCents)} per ${annual ? 'year' : 'month'}, ${seatCount(r.plan.seats)}.`],
    recent_events: [
      { at: r.originalAt, kind: 'charge', detail: paid(r.originalInvoice) },
      { at: r.duplicateAt, kind: 'charge', detail: paid(r.duplicateInvoice) },
      { at: r.remedyAt, kind: annual ? 'refund' : 'credit', detail: remedy },
    ],
    priority: annual ? 'high' : 'normal',
    team: 'billing',
    status: 'resolved',
  };
}

function cancellationTicket(c: Cancellation): Ticket {
  const days = daysBetween(c.paidOn, c.cancelledOn);
  const subject =
    days === 1 ? 'Cancelled the day after signing up - refund please' : days < 10 ? `Cancelled after ${days} days - refund please` : 'Cancelled within two weeks - can I get a refund?';
  return {
    id: c.ticketId,
    customer: { name: c.customer.name, tier: c.customer.tier, account: c.customer.account },
    subject,
    body: `I signed up for the ${c.plan.name} plan on ${dayMonthOf(c.paidOn)}, it isn't what we need and I cancelled on ${dayMonthOf(c.cancelledOn)}. Can I get my money back?`,
    contract_notes: [`Plan: ${c.plan.name}, ${seatCount(c.plan.seats)}, cancelled ${c.cancelledOn}.`],
    recent_events: [
      { at: c.paidAt, kind: 'charge', detail: `Invoice ${c.invoice} paid: ${usdFromCents(c.plan.priceCents)} ${c.plan.name}, ${seatCount(c.plan.seats)} (${c.card.brand} ${c.card.last4})` },
      { at: c.cancelledAt, kind: 'subscription', detail: 'Subscription cancelled by customer' },
    ],
    priority: 'normal',
    team: null,
    status: 'open',
  };
}

function questionTicket(q: CycleQuestion): Ticket {
  return {
    id: q.ticketId,
    customer: { name: q.customer.name, tier: q.customer.tier, account: q.customer.account },
    subject: `Annual vs monthly - which is cheaper for ${q.targetSeats} seats?`,
    body: `We're growing to ${q.targetSeats} people next quarter. Is it cheaper to stay monthly or switch to annual billing? Do we lose anything if we switch mid-cycle?`,
    contract_notes: [`Plan: ${q.plan.name}, ${seatCount(q.plan.seats)}.`],
    recent_events: [
      { at: q.paidAt, kind: 'charge', detail: `Invoice ${q.invoice} paid: ${usdFromCents(q.plan.priceCents)} ${q.plan.name}, ${seatCount(q.plan.seats)} (${q.card.brand} ${q.card.last4})` },
    ],
    priority: 'low',
    team: null,
    status: 'open',
  };
}

function addOnQuestionTicket(q: AddOnQuestion): Ticket {
  return {
    id: q.ticketId,
    customer: { name: q.customer.name, tier: q.customer.tier, account: q.customer.account },
    subject: 'What is this small charge on our card?',
    body: `There's a charge of ${usdFromCents(q.cents)} from you on ${dayMonthOf(q.date)} that I don't recognise. We already pay for our plan, so what is it for?`,
    contract_notes: [`Plan: ${q.plan.name}, ${usdFromCents(q.plan.priceCents)} per ${q.plan.type === 'annual' ? 'year' : 'month'}, ${seatCount(q.plan.seats)}.`],
    recent_events: [
      { at: q.at, kind: 'charge', detail: `Invoice ${q.invoice} paid: ${usdFromCents(q.cents)} pro-rated seat add-on, ${seatCount(q.seats)} (${q.card.brand} ${q.card.last4})` },
    ],
    priority: 'low',
    team: null,
    status: 'open',
  };
}
