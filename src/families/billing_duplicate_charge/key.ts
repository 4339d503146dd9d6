import type { ReplyClaim, Task } from '../kit';
import { ACCEPTED_CARD_BRANDS, amountOf, usdFromCents } from '../shared';
import type { DuplicatePolicy, Facts } from './facts';
import { windowText } from './knowledge';

/**
 * The answer key, derived from the drawn facts by the policy logic:
 *   - the plan type in the target's contract notes picks the policy (annual: card refund; monthly: account credit);
 *   - that policy sets the priority, the team, the resolution code and the window the customer is told;
 *   - the amount is the duplicate invoice's alone: the later of the two paid invoices for the same period, never the
 *     original and never the pro-rated seat add-on beside them;
 *   - the near-misses are what a careless agent would say instead: both charges, the duplicate plus the add-on, the
 *     add-on alone, and the other policies' windows;
 *   - saying that both charges are refunded (or credited) is forbidden.
 */
export function buildAnswerKey(facts: Facts, ticketIds: string[]): Task['answer_key'] {
  const t = facts.target;
  const policy = facts.policies[t.plan.type];
  const other = facts.policies[t.plan.type === 'annual' ? 'monthly' : 'annual'];
  const duplicate = t.plan.priceCents;
  const words = policy.remedy === 'card_refund' ? REFUND_WORDS : CREDIT_WORDS;
  const amountMisses = [2 * duplicate, duplicate + t.addOn.cents, t.addOn.cents].map(money);
  const windowMisses = [other.window, { min: facts.policies.cancellationDays, max: facts.policies.cancellationDays }].map(days);
  const articleId = facts.policies.articleIds[t.plan.type];
  const remedy = policy.remedy === 'card_refund' ? 'refunded' : 'credited';

  const claims: ReplyClaim[] = [
    {
      id: policy.remedy === 'card_refund' ? 'refund_amount' : 'credit_amount',
      description: `the amount being ${remedy}: the duplicate ${usdFromCents(duplicate)} charge (${t.duplicateInvoice}), not the original ${t.originalInvoice}`,
      kind: 'money',
      amount: amountOf(duplicate),
      currency: 'USD',
      near_misses: amountMisses,
      ...words.amount,
    },
    {
      id: policy.remedy === 'card_refund' ? 'settlement_window' : 'credit_window',
      description:
        policy.remedy === 'card_refund'
          ? `card refunds for annual plans settle within ${windowText(policy.window)}`
          : `the credit appears on the next invoice within ${windowText(policy.window)}`,
      kind: 'duration',
      min: policy.window.min,
      max: policy.window.max,
      unit: 'business_day',
      near_misses: windowMisses,
      ...words.window,
    },
  ];

  return {
    target_ticket_id: t.ticketId,
    required_article_ids: [articleId],
    priority: policy.priority,
    team: policy.team,
    resolution: { code: policy.resolution, amount: amountOf(duplicate) },
    reply_claims: claims,
    no_action_ticket_ids: ticketIds.filter((id) => id !== t.ticketId),
    forbidden: [
      {
        id: policy.remedy === 'card_refund' ? 'refunds_both_charges' : 'credits_both_charges',
        description: `telling the customer both charges (${usdFromCents(2 * duplicate)}) are ${remedy}: the policy ${policy.remedy === 'card_refund' ? 'refunds' : 'credits'} the duplicate only, never the original`,
        kind: 'money',
        amount: amountOf(2 * duplicate),
        currency: 'USD',
        ...words.amount,
      },
    ],
    justification: justify(facts, policy, articleId),
  };
}

function money(cents: number) {
  return { kind: 'money' as const, amount: amountOf(cents), currency: 'USD' as const };
}

function days(window: { min: number; max: number }) {
  return { kind: 'duration' as const, min: window.min, max: window.max, unit: 'business_day' as const };
}

function justify(facts: Facts, policy: DuplicatePolicy, articleId: string): Task['answer_key']['justification'] {
  const t = facts.target;
  const plan = `contract note "Plan: ${t.plan.name}" makes it the ${t.plan.type} policy`;
  const remedy =
    policy.remedy === 'card_refund'
      ? `refund the duplicate invoice only to the card and resolve as refund_issued`
      : `no card refund; credit the duplicate amount and resolve as credit_issued`;
  return {
    priority: `${articleId}: 'Set the priority to ${policy.priority}' (${plan}).`,
    team: `${articleId}: 'Route the ticket to the ${policy.team} team.'`,
    resolution:
      `${articleId}: ${remedy}; ${t.duplicateInvoice} (${usdFromCents(t.plan.priceCents)}) repeats ${t.originalInvoice} for the period from ${t.renewal} after a gateway retry, ` +
      `while ${t.addOn.invoice} (${usdFromCents(t.addOn.cents)}) is a pro-rated seat add-on (${facts.policies.articleIds.addOn}).`,
  };
}

/** What each kind of remedy is said with, and what else its figures are often said of (as the canonical task). */
type ClaimWords = Pick<ReplyClaim, 'about' | 'anchors' | 'not_about'>;

const REFUND_ANCHORS = [
  'reimburse', 'reimbursed', 'reimbursement', 'reversed', 'reversal', 'repaid', 'returned', 'returning', 'money back', 'back on',
  'back in your', 'back to your card',
  // "back to your visa", … for each card the company accepts
  ...ACCEPTED_CARD_BRANDS.map((brand) => `back to your ${brand.toLowerCase()}`),
  'coming back', 'comes back', 'come back', 'credited back', 'credited to your',
];
export const REFUND_WORDS: { amount: ClaimWords; window: ClaimWords } = {
  amount: {
    about: ['refund', 'refunded', 'refunding', 'refunds'],
    anchors: REFUND_ANCHORS,
    not_about: ['credit', 'credited', 'voucher', 'coupon', 'billed', 'total', 'altogether'],
  },
  window: {
    about: ['refund', 'refunded', 'refunding', 'refunds'],
    anchors: [
      ...REFUND_ANCHORS, 'arrive', 'arrives', 'settle', 'settles', 'settled', 'settlement', 'clear', 'clears', 'appear', 'appears',
      'show up', 'shows up', 'on your card', 'on your statement', 'see it', 'reach', 'reaches',
    ],
    not_about: ['credit', 'credited', 'voucher', 'coupon', 'billed', 'total', 'altogether', 'invoice'],
  },
};

const CREDIT_ABOUT = ['credit', 'credited', 'credits', 'crediting'];
export const CREDIT_WORDS: { amount: ClaimWords; window: ClaimWords } = {
  amount: {
    about: CREDIT_ABOUT,
    anchors: ['account balance', 'your balance', 'next invoice', 'next bill', 'off your next', 'applied to your account', 'added to your account'],
    not_about: ['refund', 'refunded', 'refunding', 'refunds', 'voucher', 'coupon', 'billed', 'total', 'altogether'],
  },
  window: {
    about: CREDIT_ABOUT,
    anchors: [
      'next invoice', 'next bill', 'appear', 'appears', 'show up', 'shows up', 'shows on', 'show on', 'reflected', 'visible', 'see it',
      'deducted', 'come off', 'comes off',
    ],
    not_about: ['refund', 'refunded', 'refunding', 'refunds', 'settle', 'settles', 'voucher', 'coupon'],
  },
};
