import { type Task, type TaskFamily, Draws, declaringLexicon } from '../kit';
import canonical from './canonical.json';
import { clockIso } from './calendar';
import { distractorTickets, instruction, knowledgeBase, targetTicket } from './content';
import { drawFacts, type Facts } from './facts';
import { answerKey, applicablePolicy } from './key';
import { LOGISTICS_LEXICON } from './lexicon';

/*
 * The logistics family: a customer's order has not arrived and they need it for an event. Half of the instances
 * are the canonical case (a VIP account's event-critical order, lost or stalled beyond the threshold of its service
 * agreement: replacement by overnight priority courier, the agreement's team and credit); the others are the cases
 * it is confused with (a VIP order that is not flagged, or not stalled long enough: a trace under the VIP article;
 * a standard or premium customer: the standard trace, even for an event).
 */

/** This family's own stream of draws, apart from the engine's inbox order and the other families'. */
const SALT = 0x10615;
const ORDER_SALT = 0x10616;

/** Every instance of this family gets the same step budget. */
const MAX_STEPS = 16;

export function generateLogisticsMissingOrderVip(seed: number): Task {
  const facts = drawFacts(new Draws(seed, SALT));
  checkConsistency(facts);
  // In an order of its own draws: the target is written first, and the engine's shuffle of the (public) seed alone
  // would put it at a predictable place.
  const written = [targetTicket(facts), ...distractorTickets(facts)];
  const inbox = new Draws(seed, ORDER_SALT).sample(written, written.length);
  return {
    id: 'logistics_missing_order_vip',
    difficulty: 'hard',
    title: logisticsMissingOrderVip.title,
    instruction: instruction(facts),
    clock: clockIso(facts.clock),
    max_steps: MAX_STEPS,
    inbox,
    knowledge_base: knowledgeBase(facts),
    answer_key: answerKey(
      facts,
      inbox.map((t) => t.id),
    ),
  };
}

/** The drawn situation and the policy the facts call for must agree; a mismatch is a generator bug, not a case. */
function checkConsistency(f: Facts): void {
  const policy = applicablePolicy(f);
  const expected = f.situation === 'vip_event_incident' ? 'vip_event_replacement' : f.situation.startsWith('vip') ? 'vip_trace' : 'standard_trace';
  if (policy !== expected) throw new Error(`logistics family: situation ${f.situation} drew facts that call for ${policy}`);
}

export const logisticsMissingOrderVip: TaskFamily = {
  id: 'logistics_missing_order_vip',
  domain: 'logistics',
  difficulty: 'hard',
  title: 'A missing order needed for an event: VIP agreements, carrier stalls and courier cut-offs',
  generatorVersion: 1,
  canonical,
  varies:
    'The clock (date, weekday, UK time before or after the 15:00 courier cut-off, GMT or BST), the customer and their tier ' +
    '(VIP about 80%, premium, standard), whether the order is flagged event-critical, the VIP Service Agreement (owning team, ' +
    'shipping credit $75-$300, stall threshold 24-72 hours, sometimes an amendment replacing the credit or the threshold), the ' +
    'carrier events (hours since the last scan, a loss report, the carrier API note), the item, quantity, order, ticket, account, ' +
    'invoice and article ids, the knowledge base figures (trace windows, goodwill credits, courier windows), the preset priority ' +
    'and team, and the distractors (same customer with another issue; a resolved ticket about the same order or another VIP ' +
    "account's incident; another customer's order that is late but not needed for an event; a where-is-my-order or damaged-items ticket).",
  hard:
    'The contract notes decide whether the order is event-critical, which team owns the incident, the shipping credit and the ' +
    'stall threshold (an amendment may replace the original figure): a solver that ignores them scores a mean of about 0.5 ' +
    '(asserted at most 0.6). The first search hit for the customer\'s words ("order not arrived") is the standard-tier policy, ' +
    'which fails every VIP case: a solver that follows it scores a mean of about 0.4 (asserted at most 0.6). The delivery date ' +
    'depends on the clock\'s weekday and the courier cut-off.',
  // A lower bound: situations (5) x clock days (about 270) x working times (99) x customers (40 x 39) x credits (11)
  // x thresholds (4) x teams (2), before ids, items, events, distractors and knowledge-base figures.
  maxSteps: { min: MAX_STEPS, max: MAX_STEPS },
  distinctInstances: 5 * 270 * 99 * 40 * 39 * 11 * 4 * 2,
  generate: generateLogisticsMissingOrderVip,
  fingerprint(task: Task): string {
    const key = task.answer_key;
    const target = task.inbox.find((t) => t.id === key.target_ticket_id);
    return JSON.stringify([
      task.clock,
      key.target_ticket_id,
      target?.customer.name,
      key.priority,
      key.team,
      key.resolution,
      (key.reply_claims ?? []).map((c) => [c.id, c.kind === 'money' ? c.amount : c.kind === 'date' ? c.date : c.kind === 'duration' ? c.min : c.kind === 'option' ? c.value : '']),
    ]);
  },
};

/** Generator version 2: version 1's instances, seed for seed, each declaring the family's lexicon (lexicon.ts). */
export const logisticsMissingOrderVipV2: TaskFamily = declaringLexicon(logisticsMissingOrderVip, 2, LOGISTICS_LEXICON);

/**
 * Words that name the courier's collection, the other event whose day a reply tells beside the delivery date
 * ("the courier collects it on Tuesday 27 April and it is delivered on Wednesday 28 April"): said of the delivery
 * date's claim (`not_about`), they let the grader take each date for what it is.
 */
const COLLECTION_WORDS = ['collect', 'collects', 'collected', 'collecting', 'collection', 'pick', 'picks', 'picked', 'pickup', 'booked', 'booking', 'cut-off', 'cutoff'];

/** The delivery itself as a verb: a clause that says the courier delivers names the delivery, whatever else it names. */
const DELIVERY_VERBS = ['deliver', 'delivers', 'delivering'];

/** Generator version 3: version 2's instances, the delivery date's claim naming the collection as another event. */
export const logisticsMissingOrderVipV3: TaskFamily = {
  ...logisticsMissingOrderVipV2,
  generatorVersion: 3,
  generate(seed) {
    const task = logisticsMissingOrderVipV2.generate(seed);
    const claims = task.answer_key.reply_claims?.map((c) =>
      c.id === 'delivery_date' ? { ...c, about: [...(c.about ?? []), ...DELIVERY_VERBS], not_about: [...(c.not_about ?? []), ...COLLECTION_WORDS] } : c,
    );
    return { ...task, answer_key: { ...task.answer_key, reply_claims: claims } };
  },
};
