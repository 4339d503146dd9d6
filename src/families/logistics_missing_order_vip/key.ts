import type { NearMiss, ReplyClaim, Task } from '../kit';
import { DAY_MS, usdUngrouped, weekdayDayMonth } from '../shared';
import {
  hhmm,
  isoDate,
  nextBusinessDay,
  overnightDelivery,
} from './calendar';
import type { Facts } from './facts';

/*
 * The family's policy logic: which article applies to the drawn facts, and what it makes the right priority, team,
 * resolution, reply and forbidden statements. Every value comes from the facts (the ticket, the agreement, the
 * carrier events, the clock) and the knowledge base's figures, as a careful agent would derive it.
 */

export type PolicyKind = 'vip_event_replacement' | 'vip_trace' | 'standard_trace';

/**
 * The articles' "When it applies": VIP event-critical orders reported lost, or stalled for longer than the
 * agreement's (amended) threshold, get a replacement; other VIP orders a trace under the VIP article; standard and
 * premium customers the standard trace, whatever their order is for.
 */
export function applicablePolicy(f: Facts): PolicyKind {
  if (f.tier !== 'vip' || f.agreement === null) return 'standard_trace';
  const beyondThreshold = f.shipment.lost !== null || f.shipment.hoursStalled > f.agreement.thresholdHours;
  return f.flagged && beyondThreshold ? 'vip_event_replacement' : 'vip_trace';
}

type AnswerKey = Task['answer_key'];

export function answerKey(f: Facts, ticketIds: string[]): AnswerKey {
  const policy = applicablePolicy(f);
  const decision = policy === 'vip_event_replacement' ? eventDecision(f) : policy === 'vip_trace' ? vipTraceDecision(f) : standardDecision(f);
  return {
    target_ticket_id: f.target.ticket,
    ...decision,
    no_action_ticket_ids: ticketIds.filter((id) => id !== f.target.ticket),
  };
}

type Decision = Omit<AnswerKey, 'target_ticket_id' | 'no_action_ticket_ids'>;

const TEAM_NAMES: Record<string, string> = { vip_concierge: 'the VIP Concierge team (vip_concierge)', logistics: 'the Logistics team (logistics)' };

// ---------------------------------------------------------------------------------------------------------------
// VIP event-critical incident: replacement by overnight courier, the agreement's team and credit.

function eventDecision(f: Facts): Decision {
  const a = f.agreement!;
  const s = f.shipment;
  const delivery = overnightDelivery(f.clock, f.terms.cutoff);
  const why = s.lost ? `the carrier reports it lost` : `it has had no carrier scan for ${s.hoursStalled} hours, more than the ${a.thresholdHours} hours of ${a.id} ${a.creditClause}${a.amendment?.kind === 'threshold' ? ` as amended by ${a.amendment.label}` : ''}`;
  return {
    required_article_ids: [f.articles.vipEvent, f.articles.courier],
    priority: 'urgent',
    team: a.team,
    resolution: { code: 'replacement_dispatched', amount: a.credit },
    reply_claims: [courierClaim(), deliveryDateClaim(f, delivery), shippingCreditClaim(f)],
    forbidden: [opensTraceFirst()],
    // As in the canonical task: a trace mentioned beside the replacement the reply announces is not a trace first.
    forbidden_unless: { opens_trace_first: ['overnight_courier'] },
    justification: {
      priority: `${f.articles.vipEvent}: 'this is urgent; set the priority to urgent' (${s.order} is flagged event-critical and ${why}).`,
      team: `${f.articles.vipEvent} routes to the team the agreement names; ${a.id} ${a.teamClause} names ${TEAM_NAMES[a.team]}.`,
      resolution:
        `${f.articles.vipEvent}: dispatch by overnight priority courier and resolve as replacement_dispatched with the agreement's credit; ` +
        `${a.id} ${a.creditClause}${a.amendment?.kind === 'credit' ? ` as amended by ${a.amendment.label}` : ''} sets it at ${usdUngrouped(a.credit)}. ` +
        `${f.articles.courier}: ${bookingNote(f)}, delivered ${weekdayDayMonth(delivery)} before ${hhmm(f.terms.deliverBy)}.`,
    },
  };
}

function bookingNote(f: Facts): string {
  const when = `${weekdayDayMonth(f.clock.day)} at ${hhmm(f.clock.minutes)}`;
  const weekend = [0, 6].includes(new Date(f.clock.day).getUTCDay());
  if (weekend) return `booked on ${when}, a weekend, so collected ${weekdayDayMonth(nextBusinessDay(f.clock.day))}`;
  if (f.clock.minutes >= f.terms.cutoff) return `booked on ${when}, after the ${hhmm(f.terms.cutoff)} cut-off, so collected ${weekdayDayMonth(nextBusinessDay(f.clock.day))}`;
  return `booked on ${when}, before the ${hhmm(f.terms.cutoff)} cut-off`;
}

export const COURIER_OPTIONS = {
  overnight: ['overnight priority courier', 'overnight priority', 'priority overnight', 'overnight courier', 'overnight', 'next-day priority courier', 'next-day courier', 'next day priority courier', 'priority courier for next-day delivery', 'next-day priority service', 'next-day delivery', 'next day delivery'],
  standard_ground: ['standard ground', 'ground shipping', 'standard shipping', 'by ground'],
  express: ['express courier', 'express delivery', 'express shipping', 'by express', 'via express', 'express service'],
  carrier_trace: ['carrier trace', 'a trace'],
};

function courierClaim(): ReplyClaim {
  return {
    id: 'overnight_courier',
    description: 'the replacement ships by overnight priority courier',
    kind: 'option',
    value: 'overnight',
    options: COURIER_OPTIONS,
    about: ['replacement', 'dispatched', 'shipped'],
    anchors: ['replacements', 'dispatch', 'ship', 'ships', 'shipping', 'courier', 'deliver', 'delivered', 'delivery', 'arrive', 'arrives', 'goes out', 'go out', 'going out'],
  };
}

/**
 * The overnight delivery date, with the dates a careless reading gives as near misses: the calendar day after
 * today (a weekend, or ignoring the cut-off), the next business day when the cut-off has passed, and the business
 * day after the right one; and the other couriers' windows.
 */
function deliveryDateClaim(f: Facts, delivery: number): ReplyClaim {
  const t = f.terms;
  const wrongDays = [f.clock.day + DAY_MS, nextBusinessDay(f.clock.day), nextBusinessDay(delivery)].filter((day) => day !== delivery);
  const nearMisses: NearMiss[] = [
    { kind: 'duration', min: t.ground[0], max: t.ground[1], unit: 'business_day' },
    { kind: 'duration', min: t.ground[1], max: t.ground[1], unit: 'business_day' },
    { kind: 'duration', min: t.expressDays, max: t.expressDays, unit: 'business_day' },
    ...[...new Set(wrongDays)].map((day): NearMiss => ({ kind: 'date', date: isoDate(day) })),
  ];
  return {
    id: 'delivery_date',
    description: `${bookingNote(f)}, the replacement is delivered on ${weekdayDayMonth(delivery)} before ${hhmm(t.deliverBy)}`,
    kind: 'date',
    date: isoDate(delivery),
    by_time: hhmm(t.deliverBy),
    near_misses: nearMisses,
    about: ['replacement', 'dispatched', 'shipped', 'delivered', 'delivery', 'arrive', 'arrives', 'arriving', 'arrival'],
    anchors: ['replacements', 'deliver', 'with you', 'reach you', 'have it', 'have them', 'have the', 'receive', 'get it', 'get them', 'land', 'lands', 'expect it', 'expect them'],
    not_about: ['ground', 'trace', 'express'],
  };
}

/** The agreement's current credit; near misses are the other credits in sight (goodwill, the amended figure, another account's). */
function shippingCreditClaim(f: Facts): ReplyClaim {
  const a = f.agreement!;
  const others = [f.terms.goodwillVip, f.terms.goodwillPremium];
  if (a.amendment?.kind === 'credit') others.push(a.amendment.previous);
  if (f.distractors.resolved.kind === 'other_vip_incident') others.push(f.distractors.resolved.credit);
  return {
    id: 'shipping_credit',
    description: `a shipping credit of ${usdUngrouped(a.credit)} under ${a.id} ${a.creditClause}${a.amendment?.kind === 'credit' ? ` (${a.amendment.label})` : ''}`,
    kind: 'money',
    amount: a.credit,
    currency: 'USD',
    near_misses: moneyNearMisses(others, a.credit),
    about: ['credit'],
    anchors: ['credited', 'crediting'],
    not_about: ['refund', 'refunded', 'refunding'],
  };
}

export function opensTraceFirst(): ReplyClaim {
  return {
    id: 'opens_trace_first',
    description: 'telling the customer a carrier trace is being opened first, which the VIP policy forbids for an event-critical incident',
    kind: 'action',
    verbs: ['open', 'start', 'raise', 'file', 'lodge', 'launch', 'initiate', 'request', 'put', 'begin', 'submit', 'place'],
    objects: ['carrier trace', 'trace', 'trace request', 'tracing'],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Traces: the VIP delayed-shipment article, and the standard article.

function vipTraceDecision(f: Facts): Decision {
  const a = f.agreement!;
  const s = f.shipment;
  const t = f.terms;
  const why = !f.flagged
    ? `${s.order} is not flagged event-critical`
    : `${s.order} is flagged event-critical but has been stalled ${s.hoursStalled} hours, under the ${a.thresholdHours} hours of ${a.id} ${a.creditClause}${a.amendment?.kind === 'threshold' ? ` as amended by ${a.amendment.label}` : ''}, and is not reported lost`;
  const others = [a.credit, t.goodwillPremium];
  if (a.amendment?.kind === 'credit') others.push(a.amendment.previous);
  return {
    required_article_ids: [f.articles.vipDelayed],
    priority: 'high',
    team: a.team,
    resolution: { code: 'carrier_trace_opened' },
    reply_claims: [traceOpenedClaim(), traceWindowClaim(t.traceDaysVip, [t.traceDaysStandard], t.ground), goodwillClaim(t.goodwillVip, others)],
    forbidden: [promisesOvernightReplacement()],
    justification: {
      priority: `${f.articles.vipDelayed}: 'set the priority to high' (${why}).`,
      team: `${f.articles.vipDelayed} routes to the team the agreement names; ${a.id} ${a.teamClause} names ${TEAM_NAMES[a.team]}.`,
      resolution: `${f.articles.vipDelayed}: open a carrier trace and resolve as carrier_trace_opened; tell the customer the result follows within ${t.traceDaysVip} business days and the ${usdUngrouped(t.goodwillVip)} goodwill credit.`,
    },
  };
}

function standardDecision(f: Facts): Decision {
  const t = f.terms;
  const premium = f.tier === 'premium';
  const claims: ReplyClaim[] = [traceOpenedClaim(), traceWindowClaim(t.traceDaysStandard, [t.traceDaysVip], t.ground)];
  if (premium) claims.push(goodwillClaim(t.goodwillPremium, [t.goodwillVip]));
  const flaggedNote = f.flagged ? ' even though the order is flagged event-critical' : '';
  return {
    required_article_ids: [f.articles.standard],
    priority: 'high',
    team: 'logistics',
    resolution: { code: 'carrier_trace_opened' },
    reply_claims: claims,
    forbidden: [promisesOvernightReplacement()],
    justification: {
      priority: `${f.articles.standard}: 'set the priority to high' (a ${f.tier} customer's order has not arrived${flaggedNote}; the VIP articles do not apply).`,
      team: `${f.articles.standard}: 'route the ticket to the logistics team'.`,
      resolution:
        `${f.articles.standard}: open a carrier trace and resolve as carrier_trace_opened; the result follows within ${t.traceDaysStandard} business days` +
        (premium ? `, and premium customers get a ${usdUngrouped(t.goodwillPremium)} goodwill credit.` : '; standard customers get no goodwill credit.'),
    },
  };
}

export function traceOpenedClaim(): ReplyClaim {
  return {
    id: 'trace_opened',
    description: 'a carrier trace has been opened on the order',
    kind: 'action',
    verbs: ['open', 'start', 'raise', 'file', 'lodge', 'launch', 'initiate'],
    objects: ['carrier trace', 'trace'],
  };
}

function traceWindowClaim(days: number, otherTraceDays: number[], ground: [number, number]): ReplyClaim {
  return {
    id: 'trace_result_window',
    description: `the trace result follows within ${days} business days`,
    kind: 'duration',
    min: days,
    max: days,
    unit: 'business_day',
    near_misses: [
      ...otherTraceDays.map((n): NearMiss => ({ kind: 'duration', min: n, max: n, unit: 'business_day' })),
      { kind: 'duration', min: ground[0], max: ground[1], unit: 'business_day' },
    ],
    about: ['trace'],
    anchors: ['result', 'results', 'answer', 'outcome', 'findings', 'hear back', 'update', 'report'],
    not_about: ['ground', 'express', 'overnight'],
  };
}

function goodwillClaim(amount: number, others: number[]): ReplyClaim {
  return {
    id: 'goodwill_credit',
    description: `a goodwill credit of ${usdUngrouped(amount)}`,
    kind: 'money',
    amount,
    currency: 'USD',
    near_misses: moneyNearMisses(others, amount),
    about: ['credit', 'goodwill'],
    anchors: ['credited', 'crediting'],
    not_about: ['refund', 'refunded', 'refunding'],
  };
}

export function moneyNearMisses(amounts: number[], right: number): NearMiss[] {
  return [...new Set(amounts)].filter((x) => x !== right).map((amount): NearMiss => ({ kind: 'money', amount, currency: 'USD' }));
}

/** Where a trace is the policy, promising a replacement by overnight courier is what the customer must not be told. */
export function promisesOvernightReplacement(): ReplyClaim {
  return {
    id: 'promises_overnight_replacement',
    description: 'promising a replacement by overnight courier, where the policy is a carrier trace first',
    kind: 'option',
    value: 'overnight',
    options: { overnight: COURIER_OPTIONS.overnight, standard_ground: COURIER_OPTIONS.standard_ground, express: COURIER_OPTIONS.express },
    about: ['replacement', 'replacements'],
    anchors: ['dispatch', 'dispatched', 'ship', 'ships', 'shipped', 'send', 'sent', 'sending', 'courier'],
  };
}

/**
 * Words that name the courier's collection, the other event whose day a reply tells beside the delivery date
 * ("the courier collects it on Tuesday 27 April and it is delivered on Wednesday 28 April"): said of the delivery
 * date's claim (`not_about`), they let the grader take each date for what it is (generator versions 3 and 4).
 */
export const COLLECTION_WORDS = ['collect', 'collects', 'collected', 'collecting', 'collection', 'pick', 'picks', 'picked', 'pickup', 'booked', 'booking', 'cut-off', 'cutoff'];

/** The delivery itself as a verb: a clause that says the courier delivers names the delivery, whatever else it names. */
export const DELIVERY_VERBS = ['deliver', 'delivers', 'delivering'];
