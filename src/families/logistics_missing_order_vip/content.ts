import type { Article, Ticket } from '../kit';
import { HOUR_MS, MINUTE_MS, longDate, usd, weekdayDayMonth } from '../shared';
import { clockInstant, hhmm, isoDate, localDay, utcIso, weekdayName } from './calendar';
import type { Agreement, Facts, PolicyTerms } from './facts';

/*
 * The words of an instance: tickets as customers write them, contract notes as account managers file them, and the
 * runbook. Pure functions of the facts; nothing here decides the answer.
 */

// ---------------------------------------------------------------------------------------------------------------
// The target ticket

export function targetTicket(f: Facts): Ticket {
  return {
    id: f.target.ticket,
    customer: { name: f.customer.name, tier: f.tier, account: f.account },
    subject: targetSubject(f),
    body: targetBody(f),
    contract_notes: targetNotes(f),
    recent_events: targetEvents(f),
    priority: f.target.priority,
    team: f.target.team,
    status: 'open',
  };
}

export function targetSubject(f: Facts): string {
  const { order, item } = f.shipment;
  const noun = f.event.kind.noun;
  return [
    `${order} still not here - ${noun} on ${weekdayDayMonth(f.event.day)}`,
    `Urgent: our ${item.unit} for the ${noun} haven't arrived`,
    `Order ${order} missing - we need it for the ${noun}`,
  ][f.target.template];
}

export function targetBody(f: Facts): string {
  const s = f.shipment;
  const e = f.event.kind;
  const due = weekdayDayMonth(s.dueDay);
  const since = weekdayDayMonth(localDay(s.lastScanAt));
  const status = s.lost
    ? `the tracking now says the parcel has been lost`
    : `the tracking hasn't changed since ${since}`;
  const need = e.need.replace('{unit}', s.item.unit);
  const when = `${e.verb} on ${weekdayDayMonth(f.event.day)}`;
  const sign = `${f.customer.name}, ${f.company}`;
  switch (f.target.template) {
    case 0:
      return `Our ${s.quantity} ${s.item.plural} (order ${s.order}) were due on ${due} and ${status}. The ${e.noun} ${when} and ${need}. I need to know what you are going to do and when we'll have them. ${sign}`;
    case 1:
      return `Hello, I'm chasing order ${s.order}: ${s.quantity} ${s.item.plural} for our ${e.noun}. It was due on ${due}, and ${status}. The ${e.noun} ${when}, and ${need}. What are you doing about it, and when will the ${s.item.unit} be with us? ${sign}`;
    default:
      return `Hi, ${s.order} should have been with us on ${due} and ${status} (${s.carrier}, ${s.tracking}). It's ${s.quantity} ${s.item.plural} for our ${e.noun}, which ${when}, and ${need}. Please tell me what happens now and when they'll arrive. ${sign}`;
  }
}

function targetNotes(f: Facts): string[] {
  const notes: string[] = [];
  if (f.agreement) notes.push(...agreementNotes(f.agreement, f.company));
  else notes.push(f.tier === 'premium' ? 'Premium plan. No service agreement.' : 'Standard plan. No service agreement.');
  if (f.flagged) notes.push(`Order ${f.shipment.order} flagged event-critical at checkout (event date ${isoDate(f.event.day)}).`);
  else if (f.notFlaggedNote) notes.push(`Order ${f.shipment.order} was placed without the event-critical flag.`);
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
    `${a.id} ${a.creditClause}: for event-critical orders lost or stalled in carrier custody for more than ${originalThreshold} hours, ship a replacement at no charge and apply a shipping credit of ${usd(originalCredit)} per incident.`,
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

export function targetEvents(f: Facts): Ticket['recent_events'] {
  const s = f.shipment;
  const events: Ticket['recent_events'] = [
    { at: utcIso(s.collectedAt), kind: 'shipment', detail: `${s.order} collected by ${s.carrier}, tracking ${s.tracking} (standard ground)` },
    ...s.scans.map((scan) => ({ at: utcIso(scan.at), kind: 'carrier_scan', detail: scan.detail })),
  ];
  if (s.lost) events.push({ at: utcIso(s.lost.at), kind: 'carrier_exception', detail: `${s.carrier} reports ${s.order} lost in transit after its last scan at ${s.lastHub} (claim ${s.lost.claim})` });
  if (s.apiNote) events.push({ at: utcIso(s.apiNote.at), kind: 'carrier_api', detail: `No scans for ${s.order} in the last ${s.apiNote.hours} hours` });
  return events.sort((a, b) => a.at.localeCompare(b.at));
}

// ---------------------------------------------------------------------------------------------------------------
// Tickets that need no action

export function distractorTickets(f: Facts): Ticket[] {
  return [sameCustomerTicket(f), resolvedTicket(f), nearDuplicateTicket(f), ...f.distractors.extras.map((x) => extraTicket(f, x))];
}

function accountLine(f: Facts): string[] {
  if (f.agreement) return [`Account: ${f.company} Ltd, VIP Service Agreement ${f.agreement.id}.`];
  return [f.tier === 'premium' ? 'Premium plan. No service agreement.' : 'Standard plan. No service agreement.'];
}

function sameCustomerTicket(f: Facts): Ticket {
  const x = f.distractors.sameCustomer;
  const first = f.customer.first;
  const text = {
    invoice_po: {
      subject: `Wrong PO number on ${x.month} invoice`,
      body: `The ${x.month} invoice ${x.invoice} shows ${x.po[0]} but it should be ${x.po[1]}. Could you reissue it? No rush. ${first}`,
    },
    vat_receipt: {
      subject: `VAT receipt for ${x.invoice}`,
      body: `Could you send us a VAT receipt for invoice ${x.invoice}? Our finance team needs it for the quarter-end close. Thanks, ${first}`,
    },
    authorised_contact: {
      subject: `Add ${x.contact.name} as an authorised contact`,
      body: `Please add ${x.contact.name} from our office as an authorised contact on the account, so they can place orders and ask about invoices. Thanks, ${first}`,
    },
  }[x.issue];
  return {
    id: x.ticket,
    customer: { name: f.customer.name, tier: f.tier, account: f.account },
    ...text,
    contract_notes: accountLine(f),
    recent_events: [],
    priority: 'low',
    team: null,
    status: 'open',
  };
}

function resolvedTicket(f: Facts): Ticket {
  const r = f.distractors.resolved;
  const now = clockInstant(f.clock);
  if (r.kind === 'colleague_asked_date') {
    // A colleague on the same account asked when the order would come, before it stalled; answered and closed.
    const answeredAt = Math.min(f.shipment.collectedAt + 20 * HOUR_MS, now - 2 * HOUR_MS);
    return {
      id: r.ticket,
      customer: { name: r.person.name, tier: f.tier, account: f.account },
      subject: `Delivery date for ${f.shipment.order}?`,
      body: `Hi, can you confirm when order ${f.shipment.order} will be delivered? ${f.customer.first} needs it for the ${f.event.kind.noun}. ${r.person.first} (${f.company})`,
      contract_notes: accountLine(f),
      recent_events: [{ at: utcIso(answeredAt), kind: 'note', detail: `Told customer estimated delivery ${isoDate(f.shipment.dueDay)} (agent: ${agentHandle(r.person.last)})` }],
      priority: 'normal',
      team: 'logistics',
      status: 'resolved',
    };
  }
  // Another VIP account's event-critical incident, handled yesterday under its own agreement.
  const owner = r.team === 'vip_concierge' ? 'the VIP Concierge team' : 'the Logistics team';
  return {
    id: r.ticket,
    customer: { name: r.person.name, tier: 'vip', account: r.account },
    subject: `${r.order} stuck with the carrier - ${r.event.noun} this week`,
    body: `Our ${r.item.plural} (order ${r.order}) haven't moved for three days and the ${r.event.noun} is this week. Please help. ${r.person.name}, ${r.company}`,
    contract_notes: [
      `Account: ${r.company} Ltd, VIP Service Agreement ${r.agreement}.`,
      `${r.agreement} s.1.2: incidents on this account are owned by ${owner}.`,
      `${r.agreement} s.4.1: for event-critical orders lost or stalled in carrier custody for more than 48 hours, ship a replacement at no charge and apply a shipping credit of ${usd(r.credit)} per incident.`,
      `Order ${r.order} flagged event-critical at checkout.`,
    ],
    recent_events: [
      { at: utcIso(now - 27 * HOUR_MS - 12 * MINUTE_MS), kind: 'shipment', detail: `Replacement for ${r.order} dispatched by overnight priority courier` },
      { at: utcIso(now - 27 * HOUR_MS - 5 * MINUTE_MS), kind: 'note', detail: `Shipping credit of ${usd(r.credit)} applied under ${r.agreement} s.4.1` },
    ],
    priority: 'urgent',
    team: r.team,
    status: 'resolved',
  };
}

function agentHandle(seed: string): string {
  const handles = ['p.kowalski', 'j.adeyemi', 'r.lund', 'm.oconnell', 's.patel'];
  return handles[seed.length % handles.length];
}

function tierNotes(tier: 'standard' | 'premium'): string[] {
  return tier === 'premium' ? ['Premium plan. No service agreement.'] : [];
}

function nearDuplicateTicket(f: Facts): Ticket {
  const n = f.distractors.nearDuplicate;
  const now = clockInstant(f.clock);
  return {
    id: n.ticket,
    customer: { name: n.person.name, tier: n.tier, account: n.account },
    subject: [`Order ${n.order} hasn't arrived yet`, `Still waiting for order ${n.order}`, `${n.order} - no tracking update for days`][n.subject],
    body: `Hi, our order ${n.order} (${n.quantity} ${n.item.plural}) was due a few days ago and still hasn't turned up. It's stock for our office shop, so it isn't urgent, but could you chase the carrier? Thanks, ${n.person.first}`,
    contract_notes: tierNotes(n.tier),
    recent_events: [{ at: utcIso(now - n.hoursStalled * HOUR_MS - 17 * MINUTE_MS), kind: 'carrier_scan', detail: `${n.order} arrived at hub, ${n.hub}` }],
    priority: 'normal',
    team: null,
    status: 'open',
  };
}

function extraTicket(f: Facts, x: Facts['distractors']['extras'][number]): Ticket {
  const now = clockInstant(f.clock);
  const customer = { name: x.person.name, tier: x.tier, account: x.account };
  if (x.kind === 'where_is_order') {
    return {
      id: x.ticket,
      customer,
      subject: `Where is my order ${x.order}?`,
      body: `Just checking where my order is, the confirmation said ${weekdayName(f.clock.day)}.`,
      contract_notes: tierNotes(x.tier),
      recent_events: [{ at: utcIso(now - 70 * MINUTE_MS), kind: 'carrier_scan', detail: `${x.order} out for delivery` }],
      priority: 'low',
      team: null,
      status: 'open',
    };
  }
  return {
    id: x.ticket,
    customer,
    subject: `Damaged ${x.item.plural} in order ${x.order}`,
    body: `Two of the ${x.item.plural} in order ${x.order} arrived with the box crushed and the contents damaged. Can you send replacements? I've attached photos. ${x.person.first}`,
    contract_notes: tierNotes(x.tier),
    recent_events: [{ at: utcIso(now - 30 * HOUR_MS), kind: 'carrier_scan', detail: `${x.order} delivered, signed for by ${x.person.last.toUpperCase()}` }],
    priority: 'normal',
    team: null,
    status: 'open',
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The knowledge base

export function knowledgeBase(f: Facts): Article[] {
  const ids = f.articles;
  const t = f.terms;
  return [
    { id: ids.standard, title: 'Orders that have not arrived (standard and premium customers)', body: standardArticle(t) },
    { id: ids.vipEvent, title: 'VIP accounts: event-critical shipment incidents', body: vipEventArticle() },
    { id: ids.vipDelayed, title: 'VIP accounts: delayed shipments that are not event-critical', body: vipDelayedArticle(t) },
    { id: ids.courier, title: 'Courier options and delivery times', body: courierArticle(t) },
    {
      id: ids.whereIsOrder,
      title: 'Checking where an order is',
      body: 'Use the carrier events on the ticket to tell the customer the latest scan. An order out for delivery arrives the same day by 18:00. Set the priority to low, route to logistics and resolve as information_provided.',
    },
    {
      id: ids.damaged,
      title: 'Items damaged in transit',
      body: `When it applies: an order was delivered but some items arrived damaged. What to do: set the priority to normal and route to logistics. Send replacements for the damaged items by express (${t.expressDays} business days) and resolve as replacement_dispatched. What to tell the customer: which items are being replaced and when they will arrive.`,
    },
    sameCustomerArticle(f),
    {
      id: ids.priorities,
      title: 'Ticket priority guidelines',
      body: 'Low: questions and requests with no impact. Normal: issues that do not block work or cost the customer money. High: the customer is blocked or out of pocket because of us. Urgent: security incidents, data exposure, and contractual deadlines we are about to miss.',
    },
    {
      id: ids.routing,
      title: 'Routing guide',
      body: 'billing: charges, refunds and invoices. logistics: shipping, delivery and carrier issues. security_ops: suspected account compromise. technical_support: product faults. vip_concierge: VIP accounts whose service agreement assigns incidents to the concierge. general_support: everything else.',
    },
  ];
}

function standardArticle(t: PolicyTerms): string {
  return (
    "When it applies: a standard or premium customer's order has not arrived by its estimated delivery date, whatever the order is for. " +
    'What to do: set the priority to high and route the ticket to the logistics team. Open a carrier trace and resolve as carrier_trace_opened. ' +
    `Premium customers get a ${usd(t.goodwillPremium)} goodwill credit on their account; standard customers get none. ` +
    'If the trace confirms a loss, send a replacement by standard ground. ' +
    `What to tell the customer: that a carrier trace has been opened, that its result will follow within ${t.traceDaysStandard} business days, and, for premium customers, the amount of the goodwill credit. ` +
    'Exceptions: VIP accounts follow the VIP shipment articles.'
  );
}

function vipEventArticle(): string {
  return (
    "When it applies: an order flagged event-critical for a VIP account is reported lost by the carrier, or has been stalled in carrier custody (no carrier scan) for longer than the threshold in the customer's VIP Service Agreement. " +
    "What to do: this is urgent; set the priority to urgent. Route the ticket to the team the customer's VIP Service Agreement names. Do not open a carrier trace first. " +
    "Dispatch a replacement at once by overnight priority courier and resolve as replacement_dispatched, with the shipping credit from the customer's agreement as the amount. " +
    'The credit, the threshold and the owning team differ between agreements, and an amendment replaces the figure of the clause it amends, so read the contract notes. ' +
    'What to tell the customer: that the replacement ships by overnight priority courier, the date it will be delivered (see courier delivery times), and the amount of the shipping credit. ' +
    "Exceptions: an event-critical order that is not reported lost and has been stalled for less than the agreement's threshold is handled as a delayed VIP shipment."
  );
}

function vipDelayedArticle(t: PolicyTerms): string {
  return (
    "When it applies: a VIP customer's order is late but is not flagged event-critical, or is flagged but has been stalled for less than the threshold in the customer's VIP Service Agreement and is not reported lost. " +
    "What to do: set the priority to high. Route the ticket to the team the customer's VIP Service Agreement names. Open a carrier trace and resolve as carrier_trace_opened. " +
    `Apply a ${usd(t.goodwillVip)} goodwill credit to the account. ` +
    `What to tell the customer: that a carrier trace has been opened, that its result will follow within ${t.traceDaysVip} business days, and the amount of the goodwill credit. ` +
    'Exceptions: no replacement is sent while the trace runs, unless the order becomes an event-critical incident under the agreement.'
  );
}

function courierArticle(t: PolicyTerms): string {
  return (
    `Standard ground: ${t.ground[0]} to ${t.ground[1]} business days. Express: ${t.expressDays} business days. ` +
    `Overnight priority courier: when booked before ${hhmm(t.cutoff)} UK time, delivered the next business day before ${hhmm(t.deliverBy)}. ` +
    `Bookings made at ${hhmm(t.cutoff)} or later, or on a Saturday or Sunday, are collected the next business day and delivered the business day after that, before ${hhmm(t.deliverBy)}. ` +
    'Business days are Monday to Friday. Tracking numbers are emailed to the customer once the courier collects.'
  );
}

export function sameCustomerArticle(f: Facts): Article {
  const id = f.articles.sameCustomer;
  switch (f.distractors.sameCustomer.issue) {
    case 'invoice_po':
      return { id, title: 'Reissuing an invoice with a corrected PO number', body: 'Billing can reissue an invoice with a corrected purchase order number. Set the priority to low, route to billing and resolve as information_provided once reissued.' };
    case 'vat_receipt':
      return { id, title: 'VAT receipts', body: 'A VAT receipt can be sent for any paid invoice. Set the priority to low, route to billing and resolve as information_provided once it has been emailed.' };
    default:
      return { id, title: 'Adding an authorised contact to an account', body: 'An account owner may add authorised contacts in writing. Set the priority to low, route to general_support and resolve as information_provided once the contact is added.' };
  }
}

/** The instruction: the situation in general terms and the clock, never the customer or the answer. */
export function instruction(f: Facts): string {
  const c = f.clock;
  return (
    "You are a Tier-1 support agent at Northwind Supply, which ships branded event kits. A customer's order has not arrived and they need it for an event. " +
    'Find the ticket that needs action, read the customer\'s contract notes and the carrier events, follow the policy that applies to this customer, set the ticket\'s priority and team, tell the customer exactly what will happen and when, and resolve the case. ' +
    'Resolving a ticket ends the episode: resolve only the ticket that needs action, as your last step; changing or replying on tickets that need no action costs points. ' +
    `Today is ${longDate(c.day)}, ${hhmm(c.minutes)} UK time.`
  );
}
