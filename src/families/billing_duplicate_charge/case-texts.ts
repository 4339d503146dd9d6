import type { Article, Ticket } from '../kit';
import { usd, usdFromCents } from '../shared';
import { timestamp } from './calendar';
import type { CaseFacts, CaseKind } from './case-facts';
import type { Facts } from './facts';
import { planNote, targetBody, targetSubject } from './inbox';
import { ADD_ON, BILLING_CONTACT, CYCLES, PDF_EXPORT, TAX_ID, type Text, cancellationArticle, windowText } from './knowledge';

/**
 * Generator version 3's texts: the target ticket (worded by the customer the same way for every kind of case) and
 * the knowledge base (a triage article with this instance's figures, one policy article per kind, and version 1's
 * near-misses). Which kind a case is shows only in the contract notes, the account's events and the figures.
 */

function seatCount(n: number): string {
  return n === 1 ? '1 seat' : `${n} seats`;
}

export function caseTargetTicket(facts: Facts, c: CaseFacts): Ticket {
  const t = facts.target;
  const card = `${t.card.brand} ${t.card.last4}`;
  const period = (invoice: string, verb: string) =>
    `Invoice ${invoice} ${verb}: ${usdFromCents(c.plan.priceCents)} ${c.plan.tier} plan, ${seatCount(c.plan.seats)}, billing period from ${c.chargedOn} (${card})`;
  const base = Number(t.originalInvoice.slice(4));
  const addOnAt = timestamp(t.addOn.date, 10 * 3600 + (base % 7) * 3600);
  const events: Ticket['recent_events'] = [
    c.addOnOverdue
      ? { at: addOnAt, kind: 'charge', detail: `Invoice ${t.addOn.invoice} unpaid: ${usdFromCents(t.addOn.cents)} pro-rated seat add-on, ${seatCount(t.addOn.seats)}; card payment declined, invoice overdue (${card})` }
      : { at: addOnAt, kind: 'charge', detail: `Invoice ${t.addOn.invoice} paid: ${usdFromCents(t.addOn.cents)} pro-rated seat add-on, ${seatCount(t.addOn.seats)} (${card})` },
  ];
  const second = (n: number) => Number(t.originalAt.slice(11, 13)) * 3600 + Number(t.originalAt.slice(14, 16)) * 60 + n;
  events.push({ at: timestamp(c.chargedOn, second(0)), kind: 'charge', detail: period(t.originalInvoice, 'paid') });
  let clock = 0;
  for (let i = 1; i <= c.retries; i++) {
    clock += 40 + ((base * i) % 50);
    events.push({ at: timestamp(c.chargedOn, second(clock)), kind: 'gateway', detail: 'Payment gateway timeout on confirmation; automatic retry scheduled' });
    clock += 60 + ((base * (i + 3)) % 240);
    const invoice = `INV-${base + i}`;
    if (c.kind === 'voided_retry') {
      events.push({ at: timestamp(c.chargedOn, second(clock)), kind: 'charge', detail: `${period(invoice, 'authorised')}, pending capture` });
      clock += 90;
      events.push({ at: timestamp(c.chargedOn, second(clock)), kind: 'gateway', detail: `Retry authorisation for ${invoice} voided by the gateway: the ${usdFromCents(c.plan.priceCents)} hold was never captured` });
    } else {
      events.push({ at: timestamp(c.chargedOn, second(clock)), kind: 'charge', detail: period(invoice, 'paid') });
    }
  }
  events.push({ at: timestamp(c.chargedOn, second(clock + 20)), kind: 'subscription', detail: 'Subscription renewed' });
  if (c.refundedAt) {
    events.push({
      at: c.refundedAt,
      kind: 'gateway',
      detail: `Refund of ${usdFromCents(c.totalCents)} for ${Array.from({ length: c.retries }, (_, i) => `INV-${base + 1 + i}`).join(' and ')} sent to ${card} (ticket ${c.earlierTicket}, agent ${c.refundAgent})`,
    });
  }
  if (t.signInAt) events.push({ at: timestamp(facts.clockDate, 7 * 3600 - 600), kind: 'login', detail: 'Admin sign-in from a known device' });
  // The ticket's own arrival, a little before the case's clock: what the refund window is counted up to.
  const clockSecond = Number(facts.clock.slice(11, 13)) * 3600 + Number(facts.clock.slice(14, 16)) * 60;
  events.push({ at: timestamp(facts.clockDate, clockSecond - 300 - (base % 30) * 60), kind: 'ticket', detail: 'Ticket opened by the customer (this ticket)' });
  events.sort((a, b) => a.at.localeCompare(b.at));
  // The customer's words are version 1's draws, made apart from the kind; a third charge is "repeated charges".
  // "This month" or "last month" would date the charge, which the kind decides: the customer says "latest" instead.
  const body = targetBody(t, facts.clockDate).replace(/\b(this|last) month's payment/, 'our latest payment');
  const subject = targetSubject(t, facts.clockDate).replace(/ (this|last) month(\?\?)?$/, (_m, _w, marks: string | undefined) => ` on our latest invoice${marks ?? ''}`);
  return {
    id: t.ticketId,
    customer: { name: t.customer.name, tier: t.customer.tier, account: t.customer.account },
    subject,
    body: c.retries === 1 ? body : body.replace(' - two charges of ', ' - repeated charges of '),
    contract_notes: [
      planNote(c.plan, c.chargedOn),
      `Payment method on file: ${t.card.brand} ending ${t.card.last4}; card payments are captured by the payment gateway and retried automatically on a timeout.`,
      `Seat add-on bought ${t.addOn.date} (${seatCount(t.addOn.seats)}), billed pro rata up to the renewal.`,
      `Account owner: ${t.customer.name} (${t.customer.role}); billing disputes follow the duplicate-charge policies.`,
    ],
    recent_events: events,
    priority: t.preset.priority,
    team: t.preset.team,
    status: 'open',
  };
}

export const KIND_TITLES: Record<CaseKind, string> = {
  card_refund: 'Annual plans: refunding a duplicate charge to the card',
  refund_approval: 'Duplicate-charge refunds above the approval limit',
  late_credit: 'Annual plans: duplicate charges reported late',
  monthly_credit: 'Monthly plans: crediting a duplicate charge',
  voided_retry: 'Gateway retries that were voided (pending holds)',
  already_refunded: 'Duplicate charges already refunded',
};

export const TRIAGE_TITLE = 'Charged twice: which duplicate-charge policy applies';

export function caseKnowledgeBase(facts: Facts, c: CaseFacts): Article[] {
  const ids = c.articleIds;
  const ids1 = facts.policies.articleIds;
  return [
    { id: ids.triage, ...triageArticle(c) },
    ...(Object.keys(KIND_TITLES) as CaseKind[]).map((kind) => ({ id: ids[kind], ...kindArticle(kind, c) })),
    { id: ids1.cancellation, ...cancellationArticle(facts.policies.cancellationDays) },
    { id: ids1.addOn, ...ADD_ON },
    { id: ids1.cycles, ...CYCLES },
    { id: ids1.billingContact, ...BILLING_CONTACT },
    { id: ids1.taxId, ...TAX_ID },
    { id: ids1.pdfExport, ...PDF_EXPORT },
    { id: ids1.priorities, ...PRIORITIES_GUIDE },
    { id: ids1.routing, ...ROUTING_GUIDE },
  ];
}

function triageArticle(c: CaseFacts): Text {
  const p = c.policy;
  return {
    title: TRIAGE_TITLE,
    body:
      'When it applies: a customer says they were charged twice, or more, for one billing period. Read the account\'s events and contract notes before choosing a policy: the customer\'s own words do not tell the cases apart. ' +
      `What to do: if the gateway only authorised the retry and then voided it, no money was taken: follow "${KIND_TITLES.voided_retry}". ` +
      `If a refund of the duplicate was already sent (on another ticket), follow "${KIND_TITLES.already_refunded}". ` +
      `Monthly plans: follow "${KIND_TITLES.monthly_credit}". ` +
      `Annual plans: a duplicate reported (the ticket opened) within ${p.refundWindowDays} days of the duplicate charge is refunded to the card; after ${p.refundWindowDays} days follow "${KIND_TITLES.late_credit}". ` +
      `Tier-1 refunds at most ${usd(p.approvalLimit)} to a card: where the refund comes to more than ${usd(p.approvalLimit)} in total, follow "${KIND_TITLES.refund_approval}"; up to ${usd(p.approvalLimit)}, follow "${KIND_TITLES.card_refund}". ` +
      `Priority: each policy sets it against ${usd(p.priorityThreshold)}, this quarter's threshold for the money at stake. Premium and VIP customers (the tier on the ticket) get one level higher than the policy sets: low becomes normal, normal becomes high, high becomes urgent. ` +
      'VIP accounts belong to the account team: route every VIP case to the vip_concierge team, whatever the policy names. ' +
      'Exceptions: a pro-rated seat add-on or a charge for a different period is not a duplicate.',
  };
}

function threshold(c: CaseFacts, above = 'high', below = 'normal', what = 'the amount refunded or credited'): string {
  return `Set the priority to ${above} if ${what} is ${usd(c.policy.priorityThreshold)} or more, otherwise set the priority to ${below}.`;
}

const OVERDUE = 'If the account has an overdue invoice (a declined card payment), the duplicate money pays it first: take the overdue amount off.';

function kindArticle(kind: CaseKind, c: CaseFacts): Text {
  const p = c.policy;
  const v = c.articleVariant;
  const title = KIND_TITLES[kind];
  switch (kind) {
    case 'card_refund':
      return {
        title,
        body:
          `When it applies: an annual plan was charged again for the same period by a gateway retry, the customer reported it within ${p.refundWindowDays} days of the duplicate charge, and the refund is ${usd(p.approvalLimit)} or less. ` +
          `What to do: refund every duplicate charge (each retry that was paid, never the original) to the card on file. ${OVERDUE} Then resolve the ticket as refund_issued with the amount refunded. ${threshold(c)} Route the ticket to the billing team. ` +
          `What to tell the customer: the amount refunded, and that card refunds settle within ${windowText(p.settlement)}. ` +
          'Exceptions: a pro-rated seat add-on is an expected charge; refunds over the approval limit follow their own policy.',
      };
    case 'refund_approval':
      return {
        title,
        body:
          `When it applies: an annual-plan duplicate that would be refunded to the card, where the refund comes to more than ${usd(p.approvalLimit)}, the most Tier-1 refunds to a card. ` +
          `What to do: refund ${usd(p.approvalLimit)} to the card on file now and resolve the ticket as refund_issued with that amount; the account team approves and refunds the rest. Set the priority to high. Route the ticket to the vip_concierge team (the account team). ` +
          `What to tell the customer: the amount refunded now, that card refunds settle within ${windowText(p.settlement)}, and that the account team approves the rest within ${p.approvalDays} business days${v ? ', after which it is refunded the same way' : ''}. ` +
          'Exceptions: duplicates reported late are credited, not refunded.',
      };
    case 'late_credit':
      return {
        title,
        body:
          `When it applies: an annual plan charged twice or more for one period, reported more than ${p.refundWindowDays} days after the duplicate charge, when the card refund can no longer be made. ` +
          `What to do: do not refund to the card. Apply an account credit for every duplicate charge plus a ${usd(p.lateServiceCredit)} service credit, since the customer gets no money back. ${OVERDUE} Resolve the ticket as credit_issued with the credit amount. ${threshold(c)} Route the ticket to the billing team. ` +
          `What to tell the customer: the whole credit amount, and that the credit is applied to their account balance within ${p.lateCreditDays} business days and used against the next renewal. ` +
          'Exceptions: a pro-rated seat add-on is not a duplicate.',
      };
    case 'monthly_credit':
      return {
        title,
        body:
          'When it applies: a monthly plan charged twice or more for the same month by a gateway retry. ' +
          `What to do: monthly plans get no card refund. Apply an account credit for every duplicate charge plus a ${usd(p.serviceCredit)} service credit for the trouble. ${OVERDUE} Resolve the ticket as credit_issued with the whole credit. ${threshold(c)} Route the ticket to the billing team. ` +
          `What to tell the customer: the whole credit amount, and that it is applied to their account balance within ${p.creditDays} business days and used against the next invoice. ` +
          'Exceptions: annual plans follow their own duplicate-charge policies.',
      };
    case 'voided_retry':
      return {
        title,
        body:
          'When it applies: the statement shows a second payment, but the account\'s events show the gateway only authorised the retry and voided it: no money was taken. ' +
          `What to do: nothing is refunded or credited. ${threshold(c, 'normal', 'low', 'the voided hold')} Route the ticket to the technical_support team, which follows up gateway retries. Resolve the ticket as information_provided. ` +
          `What to tell the customer: the second payment is a pending authorisation that was voided, never taken, and the hold is released by their card issuer within ${p.holdDays} business days. ` +
          'Exceptions: a retry that was captured (paid) is a duplicate charge.',
      };
    case 'already_refunded':
      return {
        title,
        body:
          'When it applies: the account\'s events show a refund of the duplicate was already sent, for example on an earlier ticket. ' +
          `What to do: do not refund it again. ${threshold(c, 'normal', 'low', 'the refund already sent')} Route the ticket to the general_support team: nothing is left for billing to do. Resolve the ticket as information_provided. ` +
          `What to tell the customer: the amount that was refunded, and that card refunds settle within ${windowText(p.settlement)} of being sent. ` +
          'Exceptions: a refund that failed is made again under the card-refund policy.',
      };
  }
}

const PRIORITIES_GUIDE: Text = {
  title: 'Ticket priority guidelines',
  body:
    'Low: questions and requests with no impact. Normal: issues that do not block work or cost the customer money. High: the customer is blocked or out of pocket because of us. ' +
    'Urgent: security incidents, data exposure, and contractual deadlines we are about to miss. Where a policy article sets a priority, the article takes precedence over these guidelines.',
};

const ROUTING_GUIDE: Text = {
  title: 'Routing guide',
  body:
    'billing: charges, refunds, credits and invoices. technical_support: product faults, including invoice exports and payment-gateway retries. security_ops: suspected account compromise. ' +
    'logistics: shipping and delivery. vip_concierge: the account team, for VIP accounts and refund approvals above the limit. general_support: everything else.',
};
