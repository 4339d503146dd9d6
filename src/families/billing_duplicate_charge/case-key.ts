import type { ReplyClaim, Task } from '../kit';
import { amountOf, usdFromCents } from '../shared';
import type { CaseFacts } from './case-facts';
import { KIND_TITLES, TRIAGE_TITLE } from './case-texts';
import type { Facts } from './facts';
import { CREDIT_WORDS, REFUND_WORDS } from './key';

/**
 * Generator version 3's answer key, derived from the case: its kind (read from the contract notes, the events and
 * the triage article's figures) picks the policy article, which fixes priority (for the money-moving kinds, the
 * money at stake against the article's threshold, one level up for premium and VIP customers), team (VIP accounts: the
 * account team), resolution and what the customer must be told.
 *   - card_refund: refund every paid retry, less an overdue invoice the refund settles first; the settlement window;
 *   - refund_approval: the Tier-1 limit refunded now, its settlement window, and the account team's approval window for the rest;
 *   - late_credit, monthly_credit: an account credit for every paid retry, less an overdue invoice, plus the article's
 *     service credit; the credit window;
 *   - voided_retry: nothing moved; the hold's release window; saying it was refunded is forbidden;
 *   - already_refunded: nothing moved now; the amount already refunded and the settlement window.
 */
export function buildCaseAnswerKey(facts: Facts, c: CaseFacts, ticketIds: string[]): Task['answer_key'] {
  const t = facts.target;
  const p = c.policy;
  const price = c.plan.priceCents;
  const all = (c.retries + 1) * price;
  const windows = [p.settlement, one(p.creditDays), one(p.lateCreditDays), one(p.approvalDays), one(p.holdDays), one(facts.policies.cancellationDays)];
  const others = (w: { min: number; max: number }) =>
    [...new Map(windows.filter((x) => x.min !== w.min || x.max !== w.max).map((x) => [`${x.min}-${x.max}`, x])).values()].map(days);
  // The add-on's own figure is a near-miss unless the case names it for its own purpose (the overdue invoice a refund settles).
  const amountMisses = (right: number) =>
    [...new Set([all, price, c.totalCents, c.totalCents + t.addOn.cents, ...(c.addOnOverdue ? [] : [t.addOn.cents])].filter((x) => x !== right))].map(money);
  const claims: ReplyClaim[] = [];
  const forbidden: NonNullable<Task['answer_key']['forbidden']> = [];
  switch (c.kind) {
    case 'card_refund':
    case 'already_refunded': {
      const amount = c.kind === 'card_refund' ? c.amountCents! : c.totalCents;
      claims.push(
        { id: 'refund_amount', description: `the amount refunded to the card: ${usdFromCents(amount)}`, kind: 'money', amount: amountOf(amount), currency: 'USD', near_misses: amountMisses(amount), ...REFUND_WORDS.amount },
        { id: 'settlement_window', description: 'card refunds settle within the article\'s window', kind: 'duration', min: p.settlement.min, max: p.settlement.max, unit: 'business_day', near_misses: others(p.settlement), ...REFUND_WORDS.window },
      );
      if (all !== amount) forbidden.push({ id: 'refunds_all_charges', description: `telling the customer every charge (${usdFromCents(all)}) is refunded: the original stays paid`, kind: 'money', amount: amountOf(all), currency: 'USD', ...REFUND_WORDS.amount });
      break;
    }
    case 'late_credit':
    case 'monthly_credit': {
      const amount = c.amountCents!;
      const creditDays = c.kind === 'late_credit' ? p.lateCreditDays : p.creditDays;
      claims.push(
        { id: 'credit_amount', description: `the account credit: ${usdFromCents(amount)}`, kind: 'money', amount: amountOf(amount), currency: 'USD', near_misses: amountMisses(amount), ...CREDIT_WORDS.amount },
        { id: 'credit_window', description: 'the credit is applied within the article\'s window', kind: 'duration', min: creditDays, max: creditDays, unit: 'business_day', near_misses: others(one(creditDays)), ...CREDIT_WORDS.window },
      );
      if (all !== amount) forbidden.push({ id: 'credits_all_charges', description: `telling the customer every charge (${usdFromCents(all)}) is credited`, kind: 'money', amount: amountOf(all), currency: 'USD', ...CREDIT_WORDS.amount });
      break;
    }
    case 'refund_approval': {
      const amount = c.amountCents!;
      claims.push(
        { id: 'refund_amount', description: `the amount refunded now, the Tier-1 limit: ${usdFromCents(amount)}`, kind: 'money', amount: amountOf(amount), currency: 'USD', near_misses: amountMisses(amount), ...REFUND_WORDS.amount },
        { id: 'settlement_window', description: 'card refunds settle within the article\'s window', kind: 'duration', min: p.settlement.min, max: p.settlement.max, unit: 'business_day', near_misses: others(p.settlement), ...REFUND_WORDS.window },
        {
          id: 'approval_window',
          description: 'the account team approves the rest within the article\'s window',
          kind: 'duration',
          min: p.approvalDays,
          max: p.approvalDays,
          unit: 'business_day',
          near_misses: others(one(p.approvalDays)),
          about: ['approve', 'approves', 'approved', 'approval', 'review', 'reviews', 'reviewed'],
          anchors: ['account team', 'decision', 'decide', 'decides', 'signed off', 'sign off', 'sign-off'],
          not_about: ['settle', 'settles', 'settled', 'credit', 'credited', 'invoice', 'hold'],
        },
      );
      forbidden.push({ id: 'refunds_over_limit', description: `telling the customer the whole ${usdFromCents(c.totalCents)} is refunded now: above the limit it waits for approval`, kind: 'money', amount: amountOf(c.totalCents), currency: 'USD', ...REFUND_WORDS.amount });
      break;
    }
    case 'voided_retry':
      claims.push({
        id: 'hold_release_window',
        description: 'the voided hold is released by the card issuer within the article\'s window',
        kind: 'duration',
        min: p.holdDays,
        max: p.holdDays,
        unit: 'business_day',
        near_misses: others(one(p.holdDays)),
        about: ['hold', 'held', 'release', 'released', 'releases'],
        anchors: ['drop off', 'drops off', 'fall off', 'falls off', 'disappear', 'disappears', 'clear', 'clears', 'released', 'lifted', 'go away', 'goes away'],
        not_about: ['refund', 'refunded', 'refunds', 'credit', 'credited', 'settle', 'settles', 'invoice'],
      });
      forbidden.push({ id: 'refunds_voided_retry', description: `telling the customer the ${usdFromCents(price)} retry was refunded: it was never taken`, kind: 'money', amount: amountOf(price), currency: 'USD', ...REFUND_WORDS.amount });
      break;
  }
  const articleId = c.articleIds[c.kind];
  const money_ = c.amountCents === null ? undefined : amountOf(c.amountCents);
  return {
    target_ticket_id: t.ticketId,
    required_article_ids: [articleId],
    priority: c.priority,
    team: c.team,
    resolution: { code: c.kind === 'card_refund' || c.kind === 'refund_approval' ? 'refund_issued' : c.kind === 'late_credit' || c.kind === 'monthly_credit' ? 'credit_issued' : 'information_provided', ...(money_ === undefined ? {} : { amount: money_ }) },
    reply_claims: claims,
    no_action_ticket_ids: ticketIds.filter((id) => id !== t.ticketId),
    forbidden,
    justification: {
      priority: `${articleId} ("${KIND_TITLES[c.kind]}"), chosen by ${c.articleIds.triage} ("${TRIAGE_TITLE}"): priority ${c.priority}${c.amountCents !== null ? ` (${usdFromCents(c.amountCents)} against the ${usdFromCents(p.priorityThreshold * 100)} threshold)` : ''}.`,
      team: `${articleId}: route to ${c.team}.`,
      resolution:
        `${c.kind}: plan ${c.plan.name} (contract notes), ${c.retries} retr${c.retries === 1 ? 'y' : 'ies'} of ${usdFromCents(price)} on ${c.chargedOn}, ${c.ageDays} days before the clock ` +
        `(refund window ${p.refundWindowDays} days, approval limit ${usdFromCents(p.approvalLimit * 100)})${c.addOnOverdue ? `, overdue add-on ${usdFromCents(t.addOn.cents)} settled first` : ''}.`,
    },
  };
}

function one(n: number) {
  return { min: n, max: n };
}

function money(cents: number) {
  return { kind: 'money' as const, amount: amountOf(cents), currency: 'USD' as const };
}

function days(window: { min: number; max: number }) {
  return { kind: 'duration' as const, min: window.min, max: window.max, unit: 'business_day' as const };
}
