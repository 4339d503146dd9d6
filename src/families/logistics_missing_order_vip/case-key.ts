import type { NearMiss, ReplyClaim, Task } from '../kit';
import { DAY_MS, amountOf, usdFromCents, usdUngrouped, weekdayDayMonth } from '../shared';
import { hhmm, isoDate, nextBusinessDay } from './calendar';
import type { CaseFacts, CaseKind } from './case-facts';
import { KIND_TITLES, TRIAGE_TITLE } from './case-texts';
import type { Facts } from './facts';
import { COLLECTION_WORDS, COURIER_OPTIONS, DELIVERY_VERBS, moneyNearMisses, opensTraceFirst, promisesOvernightReplacement, traceOpenedClaim } from './key';

/**
 * Generator version 4's answer key, derived from the case: its kind (read from the contract notes, the carrier events
 * and the triage article's figures) picks the policy article, which fixes the team (the VIP agreement's, logistics for
 * premium accounts, general support for standard ones, billing for refunds and credits), the resolution and what the
 * customer must be told; the priority is the triage article's rule on the business days to the needed-by date (a
 * refund's is high, an account credit's normal).
 *   - ground/express/overnight replacement: the courier, the delivery date it gives, the shipping credit (the
 *     agreement's for VIP accounts, the article's for premium and standard accounts), also the resolution's amount;
 *   - carrier_trace: a trace opened and the days its result takes; promising a replacement is forbidden;
 *   - refund_too_late / credit_too_late: the order's value refunded to the card or credited to the account, and the
 *     window; promising a replacement is forbidden.
 */
export function buildCaseAnswerKey(f: Facts, c: CaseFacts, ticketIds: string[]): Task['answer_key'] {
  const p = c.policy;
  const a = c.agreement;
  const claims: ReplyClaim[] = [];
  const forbidden: ReplyClaim[] = [];
  let forbiddenUnless: Task['answer_key']['forbidden_unless'];
  const otherCredits = [p.premiumCredit, p.standardCredit, ...(a ? [a.credit] : []), ...(a?.amendment?.kind === 'credit' ? [a.amendment.previous] : [])];
  if (f.distractors.resolved.kind === 'other_vip_incident') otherCredits.push(f.distractors.resolved.credit);
  const windows = [p.settlement, one(p.creditDays), one(p.traceDays), one(p.expressDays), { min: p.ground[0], max: p.ground[1] }];
  const otherWindows = (w: { min: number; max: number }) =>
    [...new Map(windows.filter((x) => x.min !== w.min || x.max !== w.max).map((x) => [`${x.min}-${x.max}`, x])).values()].map(days);
  let code: Task['answer_key']['resolution'];
  switch (c.kind) {
    case 'ground_replacement':
    case 'express_replacement':
    case 'overnight_replacement': {
      claims.push(courierClaim(c.kind), deliveryDateClaim(f, c), creditClaim(c.credit, otherCredits));
      forbidden.push(opensTraceFirst());
      // As in the canonical task: a trace mentioned beside the replacement the reply announces is not a trace first.
      forbiddenUnless = { opens_trace_first: ['replacement_courier'] };
      code = { code: 'replacement_dispatched', amount: c.credit };
      break;
    }
    case 'carrier_trace':
      claims.push(traceOpenedClaim(), {
        id: 'trace_result_window',
        description: `the trace result follows within ${p.traceDays} business days`,
        kind: 'duration',
        min: p.traceDays,
        max: p.traceDays,
        unit: 'business_day',
        near_misses: otherWindows(one(p.traceDays)),
        about: ['trace'],
        anchors: ['result', 'results', 'answer', 'outcome', 'findings', 'hear back', 'update', 'report'],
        not_about: ['ground', 'express', 'overnight', 'refund', 'credit'],
      });
      forbidden.push(promisesOvernightReplacement());
      code = { code: 'carrier_trace_opened' };
      break;
    case 'refund_too_late':
      claims.push(
        { id: 'refund_amount', description: `the order's value refunded to the card: ${usdFromCents(c.valueCents)}`, kind: 'money', amount: amountOf(c.valueCents), currency: 'USD', near_misses: moneyNearMisses(otherCredits, amountOf(c.valueCents)), ...REFUND_WORDS.amount },
        { id: 'settlement_window', description: 'card refunds settle within the article\'s window', kind: 'duration', min: p.settlement.min, max: p.settlement.max, unit: 'business_day', near_misses: otherWindows(p.settlement), ...REFUND_WORDS.window },
      );
      forbidden.push(promisesOvernightReplacement());
      code = { code: 'refund_issued', amount: amountOf(c.valueCents) };
      break;
    case 'credit_too_late':
      claims.push(
        { id: 'credit_amount', description: `the order's value credited to the account: ${usdFromCents(c.valueCents)}`, kind: 'money', amount: amountOf(c.valueCents), currency: 'USD', near_misses: moneyNearMisses(otherCredits, amountOf(c.valueCents)), ...CREDIT_WORDS.amount },
        { id: 'credit_window', description: 'the credit shows on the account within the article\'s window', kind: 'duration', min: p.creditDays, max: p.creditDays, unit: 'business_day', near_misses: otherWindows(one(p.creditDays)), ...CREDIT_WORDS.window },
      );
      forbidden.push(promisesOvernightReplacement());
      code = { code: 'credit_issued', amount: amountOf(c.valueCents) };
      break;
  }
  const article = c.articleIds[c.kind];
  const replacement = c.kind.endsWith('_replacement');
  return {
    target_ticket_id: f.target.ticket,
    required_article_ids: replacement ? [article, c.articleIds.courier] : [article],
    priority: c.priority,
    team: c.team,
    resolution: code,
    reply_claims: claims,
    no_action_ticket_ids: ticketIds.filter((id) => id !== f.target.ticket),
    forbidden,
    ...(forbiddenUnless ? { forbidden_unless: forbiddenUnless } : {}),
    justification: justification(f, c, article),
  };
}

function justification(f: Facts, c: CaseFacts, article: string): Task['answer_key']['justification'] {
  const p = c.policy;
  const a = c.agreement;
  const today = weekdayDayMonth(f.clock.day);
  const lost = c.lost
    ? `no carrier scan for ${f.shipment.hoursStalled} hours, more than the ${c.thresholdHours} hours ${a ? `of ${a.id} ${a.creditClause}` : 'of the triage article'}: lost`
    : `no carrier scan for ${f.shipment.hoursStalled} hours, under the ${c.thresholdHours} hours ${a ? `of ${a.id} ${a.creditClause}` : 'of the triage article'}: not lost`;
  const dates =
    `needed on site by ${weekdayDayMonth(c.neededBy)}; booked ${today} at ${hhmm(f.clock.minutes)} (cut-off ${hhmm(p.cutoff)}), collected ${weekdayDayMonth(c.collection)}: ` +
    `overnight ${weekdayDayMonth(c.dates.overnight)}, express ${weekdayDayMonth(c.dates.express)}, ground by ${weekdayDayMonth(c.dates.ground)}; a trace answers by ${weekdayDayMonth(c.dates.trace)}`;
  const teamWhy =
    c.team === 'billing'
      ? `${article}: route to billing, VIP accounts included.`
      : a
        ? `${article}: the team the agreement names; ${a.id} ${a.teamClause} names ${c.team}.`
        : `${article}: ${c.tier} accounts go to ${c.team}.`;
  const amount =
    c.kind === 'refund_too_late' || c.kind === 'credit_too_late'
      ? `the order's value, ${usdFromCents(c.valueCents)} (contract notes), ${c.kind === 'refund_too_late' ? 'refunded to the card' : 'credited to the account'}`
      : c.kind === 'carrier_trace'
        ? `a trace, its result within ${p.traceDays} business days`
        : `the shipping credit ${usdUngrouped(c.credit)} (${a ? `${a.id} ${a.creditClause}${a.amendment?.kind === 'credit' ? ` as amended by ${a.amendment.label}` : ''}` : `the article's figure for ${c.tier} accounts`})`;
  return {
    priority:
      c.kind === 'refund_too_late' || c.kind === 'credit_too_late'
        ? `${article}: 'Set the priority to ${c.priority}'.`
        : `${c.articleIds.triage} ("${TRIAGE_TITLE}"): ${c.daysToNeeded} business day(s) after ${today} up to the needed-by date ${isoDate(c.neededBy)} (urgent within ${p.urgentWithin}, high within ${p.highWithin}): ${c.priority}.`,
    team: teamWhy,
    resolution: `${c.kind}, ${article} ("${KIND_TITLES[c.kind]}"), chosen by ${c.articleIds.triage}: ${lost}; ${dates}; ${amount}.`,
  };
}

const COURIER_OF: Record<Extract<CaseKind, `${string}_replacement`>, 'standard_ground' | 'express' | 'overnight'> = {
  ground_replacement: 'standard_ground',
  express_replacement: 'express',
  overnight_replacement: 'overnight',
};

function courierClaim(kind: Extract<CaseKind, `${string}_replacement`>): ReplyClaim {
  const value = COURIER_OF[kind];
  return {
    id: 'replacement_courier',
    description: `the replacement ships by ${value.replace('_', ' ')}`,
    kind: 'option',
    value,
    options: COURIER_OPTIONS,
    about: ['replacement', 'dispatched', 'shipped'],
    anchors: ['replacements', 'dispatch', 'ship', 'ships', 'shipping', 'courier', 'deliver', 'delivered', 'delivery', 'arrive', 'arrives', 'goes out', 'go out', 'going out'],
  };
}

/**
 * The replacement's delivery date (for standard ground, the last day of its window), with the dates a careless
 * reading gives as near misses: the other couriers' dates, the calendar day after today, the next business day when
 * the cut-off has passed, and the business day after the right one; and the couriers' windows.
 */
function deliveryDateClaim(f: Facts, c: CaseFacts): ReplyClaim {
  const p = c.policy;
  const kind = c.kind as Extract<CaseKind, `${string}_replacement`>;
  const date = { ground_replacement: c.dates.ground, express_replacement: c.dates.express, overnight_replacement: c.dates.overnight }[kind];
  const wrongDays = [c.dates.ground, c.dates.express, c.dates.overnight, f.clock.day + DAY_MS, nextBusinessDay(f.clock.day), nextBusinessDay(date)].filter((day) => day !== date);
  const nearMisses: NearMiss[] = [
    { kind: 'duration', min: p.ground[0], max: p.ground[1], unit: 'business_day' },
    { kind: 'duration', min: p.ground[1], max: p.ground[1], unit: 'business_day' },
    { kind: 'duration', min: p.expressDays, max: p.expressDays, unit: 'business_day' },
    ...[...new Set(wrongDays)].map((day): NearMiss => ({ kind: 'date', date: isoDate(day) })),
  ];
  const courierWords = { ground_replacement: ['express', 'overnight'], express_replacement: ['ground', 'overnight'], overnight_replacement: ['ground', 'express'] }[kind];
  return {
    id: 'delivery_date',
    description: `the replacement is delivered ${kind === 'ground_replacement' ? 'by' : 'on'} ${weekdayDayMonth(date)}${kind === 'overnight_replacement' ? ` before ${hhmm(p.deliverBy)}` : ''}`,
    kind: 'date',
    date: isoDate(date),
    ...(kind === 'overnight_replacement' ? { by_time: hhmm(p.deliverBy) } : {}),
    near_misses: nearMisses,
    about: ['replacement', 'dispatched', 'shipped', 'delivered', 'delivery', 'arrive', 'arrives', 'arriving', 'arrival', ...DELIVERY_VERBS],
    anchors: ['replacements', 'deliver', 'with you', 'reach you', 'have it', 'have them', 'have the', 'receive', 'get it', 'get them', 'land', 'lands', 'expect it', 'expect them'],
    not_about: [...courierWords, 'trace', ...COLLECTION_WORDS],
  };
}

function creditClaim(amount: number, others: number[]): ReplyClaim {
  return {
    id: 'shipping_credit',
    description: `a shipping credit of ${usdUngrouped(amount)}`,
    kind: 'money',
    amount,
    currency: 'USD',
    near_misses: moneyNearMisses(others, amount),
    about: ['credit'],
    anchors: ['credited', 'crediting'],
    not_about: ['refund', 'refunded', 'refunding'],
  };
}

type ClaimWords = Pick<ReplyClaim, 'about' | 'anchors' | 'not_about'>;

const REFUND_ANCHORS = ['reimburse', 'reimbursed', 'reimbursement', 'reversed', 'repaid', 'money back', 'back on', 'back to your card', 'back to your', 'coming back', 'comes back', 'credited back', 'to your card'];
const REFUND_WORDS: { amount: ClaimWords; window: ClaimWords } = {
  amount: {
    about: ['refund', 'refunded', 'refunding', 'refunds'],
    anchors: REFUND_ANCHORS,
    not_about: ['credit', 'credited', 'shipping', 'voucher', 'total', 'altogether'],
  },
  window: {
    about: ['refund', 'refunded', 'refunding', 'refunds'],
    anchors: [...REFUND_ANCHORS, 'settle', 'settles', 'settled', 'settlement', 'clear', 'clears', 'appear', 'appears', 'show up', 'shows up', 'on your card', 'on your statement', 'see it', 'reach', 'reaches'],
    not_about: ['credit', 'credited', 'voucher', 'invoice', 'trace', 'ground', 'express', 'overnight', 'delivered', 'delivery'],
  },
};

const CREDIT_ABOUT = ['credit', 'credited', 'credits', 'crediting'];
const CREDIT_WORDS: { amount: ClaimWords; window: ClaimWords } = {
  amount: {
    about: CREDIT_ABOUT,
    anchors: ['account balance', 'your balance', 'next invoice', 'next bill', 'off your next', 'applied to your account', 'added to your account', 'to your account', 'your account'],
    not_about: ['refund', 'refunded', 'refunding', 'refunds', 'voucher', 'total', 'altogether'],
  },
  window: {
    about: CREDIT_ABOUT,
    anchors: ['next invoice', 'next bill', 'appear', 'appears', 'show up', 'shows up', 'shows on', 'show on', 'reflected', 'visible', 'see it', 'deducted', 'come off', 'comes off', 'on your account', 'on the account'],
    not_about: ['refund', 'refunded', 'refunding', 'refunds', 'settle', 'settles', 'voucher', 'trace', 'ground', 'express', 'overnight', 'delivered', 'delivery'],
  },
};

function one(n: number) {
  return { min: n, max: n };
}

function days(window: { min: number; max: number }): NearMiss {
  return { kind: 'duration', min: window.min, max: window.max, unit: 'business_day' };
}
