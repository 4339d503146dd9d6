import type { Article, Ticket } from '../kit';
import { usd, usdFromCents } from '../shared';
import { hhmm, isoDate } from './calendar';
import type { CaseFacts, CaseKind } from './case-facts';
import { sameCustomerArticle, targetBody, targetEvents, targetSubject } from './content';
import type { Agreement, Facts } from './facts';

/**
 * Generator version 4's texts: the target ticket (worded by the customer the same way for every kind of case, with
 * contract notes of the same shape for every kind) and the knowledge base (a triage article with this instance's
 * figures, one policy article per kind, the courier times, and version 1's other articles). Which kind a case is
 * shows only when the notes, the carrier events and the figures are read together.
 */

export function caseTargetTicket(f: Facts, c: CaseFacts): Ticket {
  return {
    id: f.target.ticket,
    customer: { name: f.customer.name, tier: c.tier, account: f.account },
    subject: targetSubject(f),
    body: targetBody(f),
    contract_notes: caseNotes(f, c),
    recent_events: targetEvents(f),
    priority: f.target.priority,
    team: f.target.team,
    status: 'open',
  };
}

function caseNotes(f: Facts, c: CaseFacts): string[] {
  const s = f.shipment;
  const notes = c.agreement ? agreementNotes(c.agreement, f.company) : [c.tier === 'premium' ? 'Premium plan. No service agreement.' : 'Standard plan. No service agreement.'];
  notes.push(
    `Order ${s.order}: ${s.quantity} ${s.item.plural}, ${usdFromCents(c.valueCents)}, for the ${f.event.kind.noun} on ${isoDate(f.event.day)}; needed on site by ${isoDate(c.neededBy)}.`,
    c.payment.kind === 'card' ? `Payment: by card (${c.payment.brand} ending ${c.payment.last4}).` : 'Payment: invoiced to the account on 30-day terms.',
  );
  return notes;
}

/** The agreement as filed: the original clauses, then an amendment that replaces one of their figures. */
function agreementNotes(a: Agreement, company: string): string[] {
  const originalCredit = a.amendment?.kind === 'credit' ? a.amendment.previous : a.credit;
  const originalThreshold = a.amendment?.kind === 'threshold' ? a.amendment.previous : a.thresholdHours;
  const owner =
    a.team === 'vip_concierge'
      ? 'incidents on this account are owned by the VIP Concierge team; standard queues must transfer them.'
      : 'incidents on this account are owned by the Logistics team; the VIP Concierge team is kept informed but does not own them.';
  const notes = [
    `Account: ${company} Ltd, VIP Service Agreement ${a.id}.`,
    `${a.id} ${a.teamClause}: ${owner}`,
    `${a.id} ${a.creditClause}: a parcel with no carrier scan for more than ${originalThreshold} hours is treated as lost; lost orders are replaced at no charge, with a shipping credit of ${usd(originalCredit)} per incident.`,
  ];
  if (a.amendment) {
    const what =
      a.amendment.kind === 'credit'
        ? `the shipping credit in ${a.creditClause} is now ${usd(a.credit)} per incident, replacing ${usd(a.amendment.previous)}.`
        : `the stall threshold in ${a.creditClause} is now ${a.thresholdHours} hours, replacing ${a.amendment.previous} hours.`;
    notes.push(`${a.amendment.label} to ${a.id} (effective ${isoDate(a.amendment.effective)}): ${what}`);
  }
  if (a.noiseClause) {
    const n = a.noiseClause;
    const text = {
      minimum_spend: `a minimum annual spend of ${usd(n.amount)} applies; any shortfall is invoiced in January.`,
      payment_terms: `invoices are payable within 30 days, up to a credit limit of ${usd(n.amount)}.`,
      storage: `event stock worth up to ${usd(n.amount)} is stored free of charge between events.`,
    }[n.kind];
    notes.push(`${a.id} ${n.clause}: ${text}`);
  }
  return notes;
}

export const KIND_TITLES: Record<CaseKind, string> = {
  ground_replacement: 'Replacing a lost order by standard ground',
  express_replacement: 'Replacing a lost order by express courier',
  overnight_replacement: 'Replacing a lost order by overnight priority courier',
  carrier_trace: 'Carrier traces for late orders',
  refund_too_late: 'Orders that cannot arrive in time: card payments',
  credit_too_late: 'Orders that cannot arrive in time: orders on account',
};

export const TRIAGE_TITLE = 'Missing orders needed for an event: which policy applies';
export const COURIER_TITLE = 'Courier options and delivery times';

export function caseKnowledgeBase(f: Facts, c: CaseFacts): Article[] {
  const ids = c.articleIds;
  const v1 = f.articles;
  return [
    { id: ids.triage, title: TRIAGE_TITLE, body: triageArticle(c) },
    ...(Object.keys(KIND_TITLES) as CaseKind[]).map((kind) => ({ id: ids[kind], title: KIND_TITLES[kind], body: kindArticle(kind, c) })),
    { id: ids.courier, title: COURIER_TITLE, body: courierArticle(c) },
    {
      id: v1.whereIsOrder,
      title: 'Checking where an order is',
      body: 'Use the carrier events on the ticket to tell the customer the latest scan. An order out for delivery arrives the same day by 18:00. Set the priority to low, route to logistics and resolve as information_provided.',
    },
    {
      id: v1.damaged,
      title: 'Items damaged in transit',
      body: `When it applies: an order was delivered but some items arrived damaged. What to do: set the priority to normal and route to logistics. Send replacements for the damaged items by express (${c.policy.expressDays} business days) and resolve as replacement_dispatched. What to tell the customer: which items are being replaced and when they will arrive.`,
    },
    sameCustomerArticle(f),
    {
      id: v1.priorities,
      title: 'Ticket priority guidelines',
      body: 'Low: questions and requests with no impact. Normal: issues that do not block work or cost the customer money. High: the customer is blocked or out of pocket because of us. Urgent: security incidents, data exposure, and contractual deadlines we are about to miss. Delivery policies may set their own rule, which then applies.',
    },
    {
      id: v1.routing,
      title: 'Routing guide',
      body: 'billing: charges, refunds and invoices. logistics: shipping, delivery and carrier issues. security_ops: suspected account compromise. technical_support: product faults. vip_concierge: VIP accounts whose service agreement assigns incidents to the concierge. general_support: everything else. Delivery policies say which team owns each of their cases.',
    },
  ];
}

function triageArticle(c: CaseFacts): string {
  const p = c.policy;
  const t = KIND_TITLES;
  return (
    "When it applies: a customer's order has not arrived and they need it for an event. Read the contract notes (the needed-by date, how the order was paid, any VIP Service Agreement), the carrier events and the courier times before choosing a policy: the customer's own words do not tell the cases apart. " +
    `What to do: first, a parcel with no carrier scan for more than ${p.stallHours} hours is treated as lost; a VIP Service Agreement's own threshold applies instead of this one. ` +
    `If not even the overnight priority courier, booked now, would deliver by the needed-by date, no replacement can help: follow "${t.refund_too_late}" for orders paid by card, or "${t.credit_too_late}" for orders invoiced to the account. ` +
    `If the order is not lost and a carrier trace's result (within ${p.traceDays} business days of today) would come by the needed-by date, follow "${t.carrier_trace}". ` +
    `Otherwise (the order is lost, or a trace would answer too late) replace it by the cheapest courier that delivers by the needed-by date (see "${COURIER_TITLE}"): standard ground, then express, then overnight; follow "${t.ground_replacement}", "${t.express_replacement}" or "${t.overnight_replacement}". ` +
    `Priority of a replacement or a trace: count the business days after today up to the needed-by date: ${p.urgentWithin} or fewer, urgent; ${p.highWithin} or fewer, high; more, normal. A refund or an account credit sets its own priority. ` +
    'Exceptions: an order that shows as delivered, or items that arrived damaged, follow their own articles.'
  );
}

function creditRule(c: CaseFacts): string {
  return `the shipping credit: the VIP Service Agreement's credit for VIP accounts (an amendment replaces the figure of the clause it amends), ${usd(c.policy.premiumCredit)} for premium accounts, ${usd(c.policy.standardCredit)} for standard accounts`;
}

/** Who owns a delivery case: the agreement's team, logistics for premium accounts, general support for standard ones. */
const DELIVERY_TEAM =
  "Route the ticket to the team the customer's VIP Service Agreement names; premium accounts go to the logistics team; standard accounts stay with general support, which books their replacements and opens their traces itself (route to the general_support team).";

function kindArticle(kind: CaseKind, c: CaseFacts): string {
  const p = c.policy;
  const courier = { ground_replacement: 'standard ground', express_replacement: 'express courier', overnight_replacement: 'overnight priority courier' } as const;
  switch (kind) {
    case 'ground_replacement':
    case 'express_replacement':
    case 'overnight_replacement': {
      const by = courier[kind];
      const when = {
        ground_replacement: 'standard ground still delivers a replacement by the needed-by date',
        express_replacement: 'standard ground would be too late but express delivers a replacement by the needed-by date',
        overnight_replacement: 'only the overnight priority courier delivers a replacement by the needed-by date',
      }[kind];
      return (
        `When it applies: the order is lost (or a carrier trace would answer after the needed-by date) and ${when}. ` +
        `What to do: dispatch a replacement at no charge by ${by} and resolve as replacement_dispatched, with ${creditRule(c)}, as the amount. Do not open a carrier trace first. ` +
        `${DELIVERY_TEAM} Set the priority by the triage article's rule. ` +
        `What to tell the customer: that the replacement ships by ${by}, the date it will be delivered by (see courier delivery times), and the amount of the shipping credit. ` +
        'Exceptions: an order with a needed-by date no courier can meet is not replaced.'
      );
    }
    case 'carrier_trace':
      return (
        "When it applies: the order is late but not lost, and a carrier trace's result comes by the needed-by date. " +
        'What to do: open a carrier trace and resolve as carrier_trace_opened. No replacement is sent and no credit applied while the trace runs. ' +
        `${DELIVERY_TEAM} ` +
        "Set the priority by the triage article's rule. " +
        `What to tell the customer: that a carrier trace has been opened, and that its result will follow within ${p.traceDays} business days. ` +
        'Exceptions: if the trace confirms a loss, the order is replaced under the replacement articles.'
      );
    case 'refund_too_late':
      return (
        'When it applies: not even the overnight priority courier would deliver by the needed-by date, and the order was paid by card. ' +
        'What to do: do not send a replacement. Cancel the order, refund its full value (the contract notes) to the card and resolve as refund_issued with the amount refunded. ' +
        'Route the ticket to the billing team, VIP accounts included. Set the priority to high: the customer is out of pocket until the refund settles. ' +
        `What to tell the customer: the amount refunded, and that card refunds settle within ${p.settlement.min}-${p.settlement.max} business days. ` +
        'Exceptions: orders invoiced to the account are credited instead.'
      );
    case 'credit_too_late':
      return (
        'When it applies: not even the overnight priority courier would deliver by the needed-by date, and the order was invoiced to the account. ' +
        'What to do: do not send a replacement. Cancel the order, credit its full value (the contract notes) to the account and resolve as credit_issued with the amount credited. ' +
        'Route the ticket to the billing team, VIP accounts included. Set the priority to normal: an account credit costs the customer nothing. ' +
        `What to tell the customer: the amount credited, and that the credit shows on the account within ${p.creditDays} business days, against the next invoice. ` +
        'Exceptions: orders paid by card are refunded instead.'
      );
  }
}

function courierArticle(c: CaseFacts): string {
  const p = c.policy;
  return (
    `Every courier collects bookings made before ${hhmm(p.cutoff)} UK time on a business day that same day; bookings made at ${hhmm(p.cutoff)} or later, or on a Saturday or Sunday, are collected the next business day. ` +
    `Standard ground: delivered ${p.ground[0]} to ${p.ground[1]} business days after collection. Express: delivered ${p.expressDays} business days after collection. ` +
    `Overnight priority courier: delivered the next business day after collection, before ${hhmm(p.deliverBy)}. ` +
    'Business days are Monday to Friday. Tracking numbers are emailed to the customer once the courier collects.'
  );
}
