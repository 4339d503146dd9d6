import { type Priority, type Team, Draws } from '../kit';
import { ACCEPTED_CARD_BRANDS, DAY_MS, MONTHS } from '../shared';
import { addBusinessDays, dayOf, isBusinessDay, nextBusinessDay, type UkClock } from './calendar';
import { CREDITS, PREVIOUS_THRESHOLDS, THRESHOLDS, drawFacts, drawShipment, type Agreement, type Amendment, type Facts, type Tier } from './facts';

/**
 * Generator version 4's case, drawn on top of version 1's facts (the customer, the distractors, the ids and the time
 * of day stay version 1's, drawn from the same seed; this file's draws use their own salt). Version 4 tells six kinds
 * of "our order for the event has not arrived" case apart, each followed by its own policy article, and the customer
 * words every one of them alike: only the contract notes (the needed-by date, the order's value, how it was paid, a
 * VIP Service Agreement's threshold, team and credit), the carrier events (hours since the last scan) and the
 * figures the knowledge base states for this instance (the stall threshold, the trace's answer time, the courier
 * cut-off and delivery times, the priority rule, the credits and windows) tell which.
 */

export const CASE_SALT = 0x10617;

export const CASE_KINDS = ['ground_replacement', 'express_replacement', 'overnight_replacement', 'carrier_trace', 'refund_too_late', 'credit_too_late'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

/** How often each kind is drawn (of 100): the kinds whose amount needs reading most often. */
const KIND_WEIGHTS: Record<CaseKind, number> = {
  ground_replacement: 19,
  express_replacement: 19,
  overnight_replacement: 19,
  carrier_trace: 10,
  refund_too_late: 16,
  credit_too_late: 17,
};

export type Payment = { kind: 'card'; brand: string; last4: string } | { kind: 'account' };

/** The figures the knowledge base states for this instance; each can change the decision. */
export interface CasePolicy {
  /** A parcel with no carrier scan for more than this many hours is treated as lost (a VIP agreement may set its own). */
  stallHours: number;
  /** A carrier trace's result comes within this many business days. */
  traceDays: number;
  /**
   * Priority of a replacement or a trace: the goods needed on site within this many business days, urgent; within
   * `highWithin`, high; later, normal (a refund is high, an account credit normal).
   */
  urgentWithin: number;
  highWithin: number;
  /** Every courier collects bookings made before this time (minutes after midnight, UK) on a business day that day. */
  cutoff: number;
  /** The overnight courier delivers before this time. */
  deliverBy: number;
  expressDays: number;
  ground: [number, number];
  /** The shipping credit with a replacement, for accounts without an agreement. */
  premiumCredit: number;
  standardCredit: number;
  /** Card refunds settle within this window; an account credit shows within `creditDays`. */
  settlement: { min: number; max: number };
  creditDays: number;
}

export interface CaseFacts {
  kind: CaseKind;
  policy: CasePolicy;
  tier: Tier;
  agreement: Agreement | null;
  /** The stall threshold that applies: the agreement's (amended) one for VIP accounts, the knowledge base's otherwise. */
  thresholdHours: number;
  lost: boolean;
  payment: Payment;
  /** The order's value in cents (quantity x unit price), stated in the contract notes. */
  valueCents: number;
  /** The day the goods must be on site (the contract notes), the business days to it, and the dates the couriers and a trace give. */
  neededBy: number;
  daysToNeeded: number;
  collection: number;
  dates: { ground: number; express: number; overnight: number; trace: number };
  /** The shipping credit a replacement comes with, in dollars. */
  credit: number;
  articleIds: Record<CaseKind | 'triage' | 'courier', string>;
  priority: Priority;
  team: Team;
}

export interface G4Facts {
  facts: Facts;
  case: CaseFacts;
}

/**
 * Clock days: September to June, leaving out 25 November to 3 January, so that every date a case looks ahead to (up
 * to three weeks) falls before the Christmas and New Year shutdown, when no courier runs.
 */
const CLOCK_DAYS: number[] = (() => {
  const out: number[] = [];
  for (let day = dayOf(2026, 9, 1); day <= dayOf(2027, 6, 30); day += DAY_MS) {
    const d = new Date(day);
    const month = d.getUTCMonth() + 1;
    const date = d.getUTCDate();
    if ((month === 11 && date >= 25) || month === 12 || (month === 1 && date <= 3)) continue;
    out.push(day);
  }
  return out;
})();

const UNIT_CENTS = [450, 575, 690, 825, 980, 1150, 1375, 1600, 1890, 2250, 2675, 3200, 3850];
const SETTLEMENTS = [
  { min: 3, max: 5 },
  { min: 5, max: 7 },
  { min: 7, max: 10 },
];
/** The furthest ahead a needed-by date is drawn, in days. */
const HORIZON_DAYS = 21;

function pickWeighted(d: Draws): CaseKind {
  let roll = d.int(1, 100);
  for (const kind of CASE_KINDS) {
    roll -= KIND_WEIGHTS[kind];
    if (roll <= 0) return kind;
  }
  return CASE_KINDS[0];
}

/** Business days after `from` up to and including `to` (0 when `to` is `from` or earlier). */
export function businessDaysUntil(from: number, to: number): number {
  let n = 0;
  for (let day = from + DAY_MS; day <= to; day += DAY_MS) if (isBusinessDay(day)) n++;
  return n;
}

/** A day in [from, to], both included (`to` capped at the horizon, never below `from`). */
function dayIn(d: Draws, from: number, to: number): number {
  return from + d.int(0, Math.max(0, Math.round((to - from) / DAY_MS))) * DAY_MS;
}

export function priorityFor(days: number, p: Pick<CasePolicy, 'urgentWithin' | 'highWithin'>): Priority {
  return days <= p.urgentWithin ? 'urgent' : days <= p.highWithin ? 'high' : 'normal';
}

/**
 * The triage article's rule, from the facts: no courier in time, refund (card) or credit (account); not lost and a
 * trace answers in time, trace; otherwise the cheapest courier that delivers by the needed-by date.
 */
export function kindOf(c: Pick<CaseFacts, 'lost' | 'neededBy' | 'dates' | 'payment'>): CaseKind {
  if (c.dates.overnight > c.neededBy) return c.payment.kind === 'card' ? 'refund_too_late' : 'credit_too_late';
  if (!c.lost && c.dates.trace <= c.neededBy) return 'carrier_trace';
  if (c.dates.ground <= c.neededBy) return 'ground_replacement';
  return c.dates.express <= c.neededBy ? 'express_replacement' : 'overnight_replacement';
}

export function drawCase(seed: number): G4Facts {
  // Version 1's facts, with version 1's salt (family.ts), so the customer, the distractors and the ids are its own.
  const base = drawFacts(new Draws(seed, 0x10615));
  const d = new Draws(seed, CASE_SALT);
  const kind = pickWeighted(d);
  const tier: Tier = d.pick(['vip', 'vip', 'premium', 'standard', 'vip', 'standard', 'premium', 'standard', 'standard', 'vip', 'premium', 'premium', 'standard', 'standard', 'premium', 'vip', 'vip', 'standard', 'premium', 'vip'] as const);
  const [g1, g2] = d.pick([[3, 5], [4, 6], [3, 6]] as [number, number][]);
  const settlement = d.pick(SETTLEMENTS);
  const policy: CasePolicy = {
    stallHours: d.pick(THRESHOLDS),
    traceDays: d.pick([2, 3, 4, 5]),
    // Drawn below, once the needed-by date is known.
    urgentWithin: 0,
    highWithin: 0,
    cutoff: d.pick([14, 15, 16]) * 60,
    deliverBy: 12 * 60,
    expressDays: d.pick([2, 3]),
    ground: [g1, g2],
    premiumCredit: d.pick([25, 30, 35, 40, 50, 60]),
    standardCredit: d.pick([10, 12, 15, 18, 20]),
    settlement,
    creditDays: d.pick([1, 2, 3, 4, 6].filter((n) => n !== settlement.min && n !== settlement.max)),
  };
  const clock: UkClock = { day: d.pick(CLOCK_DAYS), minutes: base.clock.minutes };
  const today = clock.day;
  const collection = isBusinessDay(today) && clock.minutes < policy.cutoff ? today : nextBusinessDay(today);
  const dates = {
    overnight: nextBusinessDay(collection),
    express: addBusinessDays(collection, policy.expressDays),
    ground: addBusinessDays(collection, g2),
    trace: addBusinessDays(today, policy.traceDays),
  };
  const horizon = today + HORIZON_DAYS * DAY_MS;
  const neededBy =
    kind === 'refund_too_late' || kind === 'credit_too_late'
      ? dayIn(d, today, dates.overnight - DAY_MS)
      : kind === 'overnight_replacement'
        ? dayIn(d, dates.overnight, dates.express - DAY_MS)
        : kind === 'express_replacement'
          ? dayIn(d, dates.express, dates.ground - DAY_MS)
          : kind === 'ground_replacement'
            ? dayIn(d, dates.ground, Math.min(horizon, dates.ground + 10 * DAY_MS))
            : dayIn(d, dates.trace, Math.min(horizon, dates.trace + 7 * DAY_MS));
  // Not lost: a trace, or a replacement because the trace would answer after the needed-by date; a case too late for
  // any courier may be either.
  const lost =
    kind === 'carrier_trace' ? false : kind === 'refund_too_late' || kind === 'credit_too_late' ? d.chance(1, 2) : dates.trace > neededBy ? d.chance(2, 3) : true;
  const payment: Payment =
    kind === 'refund_too_late' || (kind !== 'credit_too_late' && d.chance(1, 2))
      ? { kind: 'card', brand: d.pick(ACCEPTED_CARD_BRANDS), last4: d.digits(4) }
      : { kind: 'account' };

  // The agreement's threshold (VIP) or the knowledge base's decides "lost"; the hours are kept 3 or more from it.
  const agreementThreshold = d.pick(THRESHOLDS);
  const threshold = tier === 'vip' ? agreementThreshold : policy.stallHours;
  const hoursStalled = lost ? threshold + d.int(4, 60) : d.int(Math.max(6, threshold - 40), threshold - 3);
  const agreement = tier === 'vip' ? drawAgreement(d, agreementThreshold, hoursStalled, clock) : null;
  const terms = { ...base.terms, ground: policy.ground, expressDays: policy.expressDays, cutoff: policy.cutoff, deliverBy: policy.deliverBy };
  const shipment = drawShipment(d, clock, terms, base.shipment.order, hoursStalled, false);
  const valueCents = shipment.quantity * d.pick(UNIT_CENTS);
  const credit = agreement ? agreement.credit : tier === 'premium' ? policy.premiumCredit : policy.standardCredit;

  const ids = d.sample(
    Array.from({ length: 80 }, (_, i) => `KB-LOG-${400 + i}`).filter((id) => id !== base.articles.whereIsOrder && id !== base.articles.damaged),
    CASE_KINDS.length + 2,
  );
  const articleIds = Object.fromEntries(['triage', 'courier', ...CASE_KINDS].map((k, i) => [k, ids[i]])) as CaseFacts['articleIds'];

  const daysToNeeded = businessDaysUntil(today, neededBy);
  Object.assign(policy, drawPriorityRule(d, daysToNeeded));
  // A refund puts the customer out of pocket until it settles (high); an account credit costs them nothing (normal).
  const priority: Priority = kind === 'refund_too_late' ? 'high' : kind === 'credit_too_late' ? 'normal' : priorityFor(daysToNeeded, policy);
  const team: Team =
    kind === 'refund_too_late' || kind === 'credit_too_late'
      ? 'billing'
      : agreement
        ? agreement.team
        : tier === 'standard'
          ? 'general_support'
          : 'logistics';
  const c: CaseFacts = {
    kind,
    policy,
    tier,
    agreement,
    thresholdHours: threshold,
    lost,
    payment,
    valueCents,
    neededBy,
    daysToNeeded,
    collection,
    dates,
    credit,
    articleIds,
    priority,
    team,
  };
  if (kindOf(c) !== kind) throw new Error(`logistics g4: seed ${seed} drew a ${kind} case whose facts call for ${kindOf(c)}`);
  const sameCustomer = { ...base.distractors.sameCustomer, month: MONTHS[(new Date(clock.day).getUTCMonth() + 11) % 12] };
  return {
    facts: {
      ...base,
      clock,
      terms,
      tier,
      agreement,
      flagged: false,
      notFlaggedNote: false,
      shipment,
      event: { kind: base.event.kind, day: neededBy + DAY_MS },
      distractors: { ...base.distractors, sameCustomer },
    },
    case: c,
  };
}

/**
 * The priority rule's two figures (business days to the needed-by date for urgent, for high), drawn so that the
 * case's priority is any level its needed-by date allows, each about as often: the same distance to the needed-by
 * date is urgent on one instance and high or normal on another (urgent within 1-5 days, high within 1-5 more).
 */
function drawPriorityRule(d: Draws, days: number): { urgentWithin: number; highWithin: number } {
  const levels = [...(days <= 5 ? ['urgent'] : []), ...(days >= 2 && days <= 10 ? ['high'] : []), ...(days >= 3 ? ['normal'] : [])];
  const level = d.pick(levels);
  const urgentWithin =
    level === 'urgent' ? d.int(Math.max(1, days), 5) : level === 'high' ? d.int(Math.max(1, days - 5), Math.min(5, days - 1)) : d.int(1, Math.min(5, days - 2));
  const highWithin =
    level === 'urgent' ? d.int(urgentWithin + 1, urgentWithin + 5) : level === 'high' ? d.int(Math.max(days, urgentWithin + 1), urgentWithin + 5) : d.int(urgentWithin + 1, Math.min(urgentWithin + 5, days - 1));
  return { urgentWithin, highWithin };
}

/** A VIP Service Agreement as version 1 draws one, its threshold given; an amendment may replace the threshold or the credit. */
function drawAgreement(d: Draws, thresholdHours: number, hoursStalled: number, clock: UkClock): Agreement {
  const id = `VSA-${d.int(1000, 9999)}`;
  const team = d.pick(['vip_concierge', 'logistics', 'vip_concierge'] as const);
  const teamClause = `s.${d.int(1, 2)}.${d.int(1, 4)}`;
  const creditClause = `s.${d.int(4, 6)}.${d.int(1, 5)}`;
  const credit = d.pick(CREDITS);
  let amendment: Amendment | null = null;
  if (d.chance(1, 3)) {
    const label = `Amendment A${d.int(1, 4)}`;
    const effective = clock.day - d.int(20, 200) * DAY_MS;
    // A threshold amendment is drawn only where the old figure would call the parcel lost the other way.
    const flips = PREVIOUS_THRESHOLDS.filter((t) => t !== thresholdHours && Math.abs(t - hoursStalled) >= 3 && (t < hoursStalled) !== (thresholdHours < hoursStalled));
    amendment =
      d.chance(1, 2) && flips.length > 0
        ? { kind: 'threshold', previous: d.pick(flips), label, effective }
        : { kind: 'credit', previous: d.pick(CREDITS.filter((c) => c !== credit)), label, effective };
  }
  const noiseClause = d.chance(1, 2)
    ? { clause: `s.${d.int(7, 9)}.${d.int(1, 3)}`, kind: d.pick(['minimum_spend', 'payment_terms', 'storage'] as const), amount: d.pick([500, 1000, 2500, 5000]) }
    : null;
  return { id, team, teamClause, creditClause, credit, thresholdHours, amendment, noiseClause };
}
