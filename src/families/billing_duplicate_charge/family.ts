import { type Task, Draws, type TaskFamily, declaringLexicon } from '../kit';
import canonical from './canonical.json';
import { drawFacts, type Facts } from './facts';
import { buildInbox } from './inbox';
import { buildAnswerKey } from './key';
import { buildKnowledgeBase } from './knowledge';
import { BILLING_LEXICON } from './lexicon';
import { CASE_KINDS, drawCase } from './case-facts';
import { buildCaseAnswerKey } from './case-key';
import { caseKnowledgeBase, caseTargetTicket } from './case-texts';

/**
 * A customer charged twice for one billing period after a payment-gateway retry, beside a legitimate pro-rated
 * seat add-on. Whether the plan is billed by the year or by the month (written only in the contract notes)
 * decides between the two duplicate-charge policies: a card refund with high priority and a settlement window,
 * or an account credit with normal priority and a next-invoice window.
 */

const ENDING =
  'Resolving a ticket ends the episode: resolve only the ticket that needs action, as your last step; changing or replying on tickets that need no action costs points.';

/** Names the situation (and on some instances the customer), never the plan type or the remedy. */
function instruction(facts: Facts): string {
  const who = facts.namesCustomer
    ? `${facts.target.customer.name} says their card was charged twice for the same billing period.`
    : 'A customer says they were charged twice for the same billing period.';
  return (
    `You are a Tier-1 support agent at Northwind Cloud. ${who} Find their ticket in the inbox, check the charges and the plan on the account, ` +
    `follow the policy knowledge base, set the ticket's priority and team, tell the customer what they need to know, and resolve the case. ${ENDING}`
  );
}

/** The inbox order's own draws: the target is built first, and the engine's shuffle of the seed is public. */
const ORDER_SALT = 0x0b112;

/** Every instance of this family gets the same step budget. */
const MAX_STEPS = 12;

function generate(seed: number): Task {
  const facts = drawFacts(seed);
  const built = buildInbox(facts);
  const inbox = new Draws(seed, ORDER_SALT).sample(built, built.length);
  return {
    id: 'billing_duplicate_charge',
    difficulty: 'easy',
    title: 'Duplicate charge after a payment-gateway retry',
    instruction: instruction(facts),
    clock: facts.clock,
    max_steps: MAX_STEPS,
    inbox,
    knowledge_base: buildKnowledgeBase(facts.policies),
    answer_key: buildAnswerKey(
      facts,
      inbox.map((t) => t.id),
    ),
  };
}

/** The facts that decide the answer: plan policy, amount, window, target, its preset state and the clock. */
function fingerprint(task: Task): string {
  const key = task.answer_key;
  const target = task.inbox.find((t) => t.id === key.target_ticket_id);
  const claims = (key.reply_claims ?? []).map((c) => (c.kind === 'money' ? `${c.amount}` : c.kind === 'duration' ? `${c.min}-${c.max}` : c.id));
  return [
    key.target_ticket_id,
    key.required_article_ids.join('+'),
    key.priority,
    key.team,
    key.resolution.code,
    key.resolution.amount,
    ...claims,
    target?.priority,
    target?.team ?? 'none',
    task.clock,
  ].join('|');
}

export const billingDuplicateCharge: TaskFamily = {
  id: 'billing_duplicate_charge',
  domain: 'billing',
  difficulty: 'easy',
  title: 'Duplicate charge after a payment-gateway retry',
  generatorVersion: 1,
  canonical,
  varies:
    'Plan type (annual or monthly), product tier, seat count and price, card brand and digits, invoice, account and ticket ids, ' +
    'renewal date, add-on date and pro-rated amount, gateway retry times, the task clock, customer names and wording (neutral, "renewal" ' +
    'or "this month\'s payment", said of either plan type), the card-refund window (3-5, 5-7 or 7-10 business days), the next-invoice ' +
    'credit window and the cancellation window, article ids and wordings, the target\'s preset priority and team, and the distractors: ' +
    'the same customer\'s other ticket (PDF export, billing contact or VAT number), another customer\'s duplicate already resolved under ' +
    'either plan\'s policy, a cancellation refund request, and sometimes a billing-cycle question.',
  hard:
    'The plan type is written only in the contract notes and decides refund against credit, high against normal priority, the ' +
    'resolution code and which window the customer is told; the ticket body is neutral or words the charge in a way that fits either ' +
    'plan, so ignoring contract notes fails about half the instances (mean <= 0.7). The two duplicate-charge policies are near-misses ' +
    'of each other and either can rank first for the complaint\'s words, so taking the first search hit fails about half the instances (mean <= 0.7).',
  // Plan type 2 x price and seats (at least 40 per plan) x refund window 3 x credit window 2 x preset priority 3 x preset team 3
  // x renewal dates 672 x ticket ids 8900 (a lower bound: names, card digits, invoices and wordings come on top).
  maxSteps: { min: MAX_STEPS, max: MAX_STEPS },
  distinctInstances: 2 * 40 * 3 * 2 * 3 * 3 * 672 * 8900,
  generate,
  fingerprint,
};

/** Generator version 2: version 1's instances, seed for seed, each declaring the family's lexicon (lexicon.ts). */
export const billingDuplicateChargeV2: TaskFamily = declaringLexicon(billingDuplicateCharge, 2, BILLING_LEXICON);

/**
 * Generator version 3 (issue 23, a low prior): six kinds of "charged twice" case (card refund, refund over the
 * approval limit, annual duplicate reported late, monthly credit, a voided retry, a duplicate already refunded),
 * worded alike by the customer and told apart only by the contract notes, the events and this instance's figures in
 * the knowledge base (refund window, approval limit, priority threshold, service credit). Version 1's customers,
 * distractors and clock, drawn from the same seed; the canonical instance is version 2's.
 */
function generateCase(seed: number): Task {
  const { facts, case: c } = drawCase(seed);
  const built = buildInbox(facts);
  built[0] = caseTargetTicket(facts, c);
  const inbox = new Draws(seed, ORDER_SALT).sample(built, built.length);
  return {
    id: 'billing_duplicate_charge',
    difficulty: 'easy',
    title: 'Duplicate charge after a payment-gateway retry',
    instruction: instruction(facts),
    clock: facts.clock,
    max_steps: MAX_STEPS,
    inbox,
    knowledge_base: caseKnowledgeBase(facts, c),
    answer_key: buildCaseAnswerKey(
      facts,
      c,
      inbox.map((t) => t.id),
    ),
  };
}

const caseFamily: TaskFamily = {
  ...billingDuplicateCharge,
  generatorVersion: 3,
  varies:
    `The case kind (${CASE_KINDS.join(', ')}), plan type, seats and price, how many times the gateway retry was paid (1 or 2), the charge's date ` +
    'and the case\'s age, an overdue add-on invoice, the knowledge base\'s figures (card-refund window 30-90 days, Tier-1 refund limit $1,000-$3,000, ' +
    'priority threshold $400-$3,200, monthly service credit $10-$25, settlement, credit, approval and hold-release windows), customer names and ' +
    'wording (drawn apart from the kind), ids, presets and version 1\'s distractors.',
  hard:
    'The customer words every kind alike; the kind shows only in the contract notes (plan type), the events (the dates, how many retries were paid, ' +
    'a voided authorisation, a refund already sent) and the triage article\'s figures for this instance, and the amount owed back needs them all ' +
    '(every paid retry, less an overdue invoice, plus a service credit). Ignoring contract notes loses the plan type, so every monthly ' +
    'case (about a quarter) is worked as an annual one (mean <= 0.9: the events and the figures decide the rest); taking the ' +
    'first search hit follows whichever policy ranks first for the complaint\'s words (often none, the triage article), so it is ' +
    'right only when that policy is the case\'s own (mean <= 0.4).',
  distinctInstances: 6 * 2 * 2 * 4 * 4 * 4 * 4 * 3 * 672 * 8900,
  generate: generateCase,
};

/** Generator version 3: the case kinds above, each instance declaring the family's lexicon. */
export const billingDuplicateChargeV3: TaskFamily = declaringLexicon(caseFamily, 3, BILLING_LEXICON);
