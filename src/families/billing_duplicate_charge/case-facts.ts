import { type CustomerTier, type Priority, type Team, Draws } from '../kit';
import { addDays, timestamp, type IsoDate } from './calendar';
import { drawFacts, type Facts, type Plan } from './facts';

/**
 * Generator version 3's case, drawn on top of version 1's facts (the customers, distractors, ids and clock stay
 * version 1's, drawn from the same seed; this file's draws use their own salt). Version 3 tells six kinds of
 * "charged twice" case apart, each followed by its own policy article, and the customer words every one of them
 * the same way: only the contract notes (plan type, what the card on file did), the account's events (when the
 * charges were taken, how many, whether the retry was captured or refunded) and the figures the knowledge base
 * states for this instance (the card-refund window in days, the approval limit, the priority threshold, the
 * monthly service credit) tell which.
 */

export const CASE_SALT = 0x0b113;

export const CASE_KINDS = ['card_refund', 'refund_approval', 'late_credit', 'monthly_credit', 'voided_retry', 'already_refunded'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

/** How often each kind is drawn (of 100): the money-moving kinds, whose amount depends on reading, most often. */
const KIND_WEIGHTS: Record<CaseKind, number> = {
  card_refund: 24,
  refund_approval: 14,
  late_credit: 22,
  monthly_credit: 24,
  voided_retry: 8,
  already_refunded: 8,
};

/** The figures the knowledge base states for this instance; each can change the decision. */
export interface CasePolicy {
  /** Annual duplicates reported within this many days of the duplicate charge are refunded to the card. */
  refundWindowDays: number;
  /** Tier-1 refunds at most this much (dollars) to the card; the account team approves the rest. */
  approvalLimit: number;
  /** A case with this much (dollars) owed back, or more, is high priority; below, normal. */
  priorityThreshold: number;
  /** The service credit (dollars) added to a duplicate charge put right with an account credit: monthly plans; annual plans reported late. */
  serviceCredit: number;
  lateServiceCredit: number;
  /** Business days: the card refund settles; the credit is applied; the approval; the voided hold drops off. */
  settlement: { min: number; max: number };
  creditDays: number;
  lateCreditDays: number;
  approvalDays: number;
  holdDays: number;
}

export interface CaseFacts {
  kind: CaseKind;
  policy: CasePolicy;
  plan: Plan;
  /** How many times the gateway's retry took the payment again (1 or 2), or only held it (a voided retry). */
  retries: number;
  /** The charge's date (and the period's start), and the case's age in days at the clock. */
  chargedOn: IsoDate;
  ageDays: number;
  /** The pro-rated seat add-on invoice failed and is overdue: a refund or credit settles it first (money-moving kinds). */
  addOnOverdue: boolean;
  /** Already refunded: when, by whom, on which earlier ticket. */
  refundedAt: string | null;
  refundAgent: string;
  earlierTicket: string;
  articleIds: Record<CaseKind | 'triage', string>;
  articleVariant: number;
  replyVariant: number;
  /** The dollars at stake: the money moved (or to be moved, or already moved). */
  totalCents: number;
  amountCents: number | null;
  priority: Priority;
  team: Team;
}

export interface G3Facts {
  facts: Facts;
  case: CaseFacts;
}

const APPROVAL_LIMITS = [1000, 1250, 1500, 2000, 2500, 3000];
const PRIORITY_THRESHOLDS = [300, 600, 1200, 2400, 4800];
const SERVICE_CREDITS = [10, 15, 20, 25];
const LATE_SERVICE_CREDITS = [40, 50, 60, 75, 100];
const REFUND_WINDOW_DAYS = [30, 45, 60, 90];
const SETTLEMENTS = [
  { min: 3, max: 5 },
  { min: 5, max: 7 },
  { min: 7, max: 10 },
];
const AGENTS = ['r.osei', 'm.castillo', 'j.berg', 'a.nwosu', 'k.lindahl'];

const PRIORITY_UP: Record<Priority, Priority> = { low: 'normal', normal: 'high', high: 'urgent', urgent: 'urgent' };

function pickWeighted(d: Draws): CaseKind {
  let roll = d.int(1, 100);
  for (const kind of CASE_KINDS) {
    roll -= KIND_WEIGHTS[kind];
    if (roll <= 0) return kind;
  }
  return CASE_KINDS[0];
}

function withType(plan: Plan, type: Plan['type'], seats: number): Plan {
  const period = type === 'annual' ? plan.seatMonthlyCents * 10 : plan.seatMonthlyCents;
  return { ...plan, type, seats, name: `${plan.tier} ${type === 'annual' ? 'Annual' : 'Monthly'}`, priceCents: seats * period };
}

export function drawCase(seed: number): G3Facts {
  const base = drawFacts(seed);
  const d = new Draws(seed, CASE_SALT);
  const kind = pickWeighted(d);
  // The customer's tier: premium and VIP cases are one priority level up, and VIP accounts belong to the account team.
  const tier: CustomerTier = d.pick(['standard', 'standard', 'premium', 'vip'] as const);
  const settlement = d.pick(SETTLEMENTS);
  const creditDays = d.pick([2, 4, 6, 8, 10, 12].filter((n) => n !== settlement.min && n !== settlement.max));
  const approvalDays = d.pick([1, 2, 3, 4].filter((n) => n !== settlement.min && n !== creditDays));
  const holdDays = d.pick([2, 3, 4, 6, 8].filter((n) => n !== settlement.min && n !== settlement.max && n !== creditDays && n !== approvalDays));
  const lateCreditDays = d.pick([3, 5, 7, 9, 11, 15].filter((n) => n !== settlement.min && n !== settlement.max && n !== creditDays && n !== approvalDays && n !== holdDays));
  const policy: CasePolicy = {
    refundWindowDays: d.pick(REFUND_WINDOW_DAYS),
    approvalLimit: d.pick(APPROVAL_LIMITS),
    priorityThreshold: d.pick(PRIORITY_THRESHOLDS),
    serviceCredit: d.pick(SERVICE_CREDITS),
    lateServiceCredit: d.pick(LATE_SERVICE_CREDITS),
    settlement,
    creditDays,
    lateCreditDays,
    approvalDays,
    holdDays,
  };
  const type: Plan['type'] = kind === 'monthly_credit' ? 'monthly' : (kind === 'voided_retry' || kind === 'already_refunded') && d.chance(1, 2) ? 'monthly' : 'annual';
  const retries = d.chance(1, 2) ? 2 : 1;
  // Seats are drawn so that the refund is on the side of the approval limit the kind needs (the plan's tier and
  // seat price stay version 1's): at most 40 tries, then the nearest seat count.
  const limitCents = policy.approvalLimit * 100;
  const fits = (p: Plan) => (kind === 'refund_approval' ? retries * p.priceCents > limitCents : kind === 'card_refund' ? retries * p.priceCents <= limitCents : true);
  let plan = withType(base.target.plan, type, base.target.plan.seats);
  for (let i = 0; i < 40 && !fits(plan); i++) plan = withType(base.target.plan, type, d.int(2, 30));
  if (!fits(plan)) plan = withType(base.target.plan, type, kind === 'refund_approval' ? 30 : 2);
  if (!fits(plan)) plan = { ...plan, priceCents: kind === 'refund_approval' ? limitCents + plan.seats * 100 : Math.floor(limitCents / retries / 100) * 100 };

  const window = policy.refundWindowDays;
  const ageDays = kind === 'late_credit' ? d.int(window + 1, window + 45) : type === 'annual' ? d.int(1, window - 1) : d.int(1, 20);
  const chargedOn = addDays(base.clockDate, -ageDays);
  const moves = kind === 'card_refund' || kind === 'late_credit' || kind === 'monthly_credit' || kind === 'refund_approval';
  const addOnOverdue = moves && kind !== 'refund_approval' && d.chance(1, 2);
  // The seat add-on, billed pro rata from the day it was bought up to the renewal, at this plan's own rate.
  const addOnDaysBefore = d.int(3, 20);
  const seatPeriodCents = type === 'annual' ? plan.seatMonthlyCents * 10 : plan.seatMonthlyCents;
  const addOnCents = Math.max(1, Math.round((base.target.addOn.seats * seatPeriodCents * addOnDaysBefore) / (type === 'annual' ? 365 : 30)));
  const totalCents = retries * plan.priceCents;
  const owedBack = totalCents - (addOnOverdue ? addOnCents : 0);
  const amountCents =
    kind === 'card_refund'
      ? owedBack
      : kind === 'monthly_credit' || kind === 'late_credit'
        ? owedBack + (kind === 'late_credit' ? policy.lateServiceCredit : policy.serviceCredit) * 100
        : kind === 'refund_approval'
          ? limitCents
          : null;
  // The policy article's priority (the money at stake against this instance's threshold), one level up for premium customers.
  const atStake = amountCents ?? totalCents;
  const over = atStake >= policy.priorityThreshold * 100;
  const articlePriority: Priority = kind === 'refund_approval' ? 'high' : moves ? (over ? 'high' : 'normal') : over ? 'normal' : 'low';
  const priority = tier === 'standard' ? articlePriority : PRIORITY_UP[articlePriority];
  const team: Team =
    tier === 'vip' || kind === 'refund_approval' ? 'vip_concierge' : kind === 'voided_retry' ? 'technical_support' : kind === 'already_refunded' ? 'general_support' : 'billing';
  const refundDay = addDays(chargedOn, d.int(1, Math.max(1, Math.min(ageDays, 3))));
  const ids = d.sample(Array.from({ length: 60 }, (_, i) => 300 + i), CASE_KINDS.length + 1).map((n) => `KB-BIL-${n}`);
  const earlier = Number(base.target.ticketId.slice(2)) - d.int(61, 300);
  return {
    facts: {
      ...base,
      target: {
        ...base.target,
        customer: { ...base.target.customer, tier },
        plan,
        renewal: chargedOn,
        addOn: { ...base.target.addOn, date: addDays(chargedOn, -addOnDaysBefore), cents: addOnCents },
        statesAmount: d.chance(1, 2),
      },
    },
    case: {
      kind,
      policy,
      plan,
      retries,
      chargedOn,
      ageDays,
      addOnOverdue,
      refundedAt: kind === 'already_refunded' ? timestamp(refundDay, d.int(9 * 3600, 17 * 3600)) : null,
      refundAgent: d.pick(AGENTS),
      earlierTicket: `T-${earlier}`,
      articleIds: {
        triage: ids[0],
        card_refund: ids[1],
        refund_approval: ids[2],
        late_credit: ids[3],
        monthly_credit: ids[4],
        voided_retry: ids[5],
        already_refunded: ids[6],
      },
      articleVariant: d.int(0, 1),
      replyVariant: d.int(0, 2),
      totalCents,
      amountCents,
      priority,
      team,
    },
  };
}
