import { z } from 'zod';

/*
 * What only one family's content needs the engine to know, declared by the task (`answer_key.lexicon`) and never
 * written in the engine. The family's generator writes it into each instance, so an episode replays from the task
 * alone. Support-work concepts every family shares are not here: they are support-vocabulary.ts. Each field is
 * optional; a task without it lets the engine assume nothing about that part of its domain.
 */

const word = z.string().trim().min(1).max(64);
const words = z.array(word).min(1).max(64);

export const lexiconSchema = z.strictObject({
  /**
   * The first attempt at what the case's option claim replaces, and the word for the new one: a rival option given
   * as the means in a clause that names the earlier attempt ("your order went by standard ground") is said of that
   * attempt, unless the new one is named nearer ("the replacement ships by …").
   */
  earlier_attempt: z.strictObject({ names: words, renewals: words }).optional(),
  /** Where money goes back to, after "to your"/"to the" ("credited to your <card name>" is a refund, not something else). */
  refund_destinations: words.optional(),
  /** Nouns that make "<amount> per/each <noun>" a rate for each of several goods, another figure (plurals derived). */
  rate_units: words.optional(),
  /** Objects of the customer's own to-do that count as the desk's action ("you'll need to verify your identity"). */
  customer_own_objects: words.optional(),
  /** Someone other than the desk who may have done an action ("the attacker changed the password"). */
  third_parties: words.optional(),
  /** Modifiers skipped between a reversal and its object ("reinstated the active sessions"). */
  incidental_modifiers: words.optional(),
  /** Phrases that tell the customer everything is back to normal, withdrawing what earlier replies said. */
  withdrawals: words.optional(),
  /** Verbs a runbook instruction may open with in this family's articles ("Refund the duplicate…"). */
  instruction_verbs: words.optional(),
  /** Words before "code" that make it a harmless code, not a credential ("the delivery code", "the dock code"). */
  harmless_codes: words.optional(),
  /**
   * Nouns of the task's action verbs the shared table (support-vocabulary.ts ACTION_NOUNS) lacks, by verb:
   * `{"renew": ["renewal"]}` makes "the renewal of your loans" state the action.
   */
  action_nouns: z.record(word, words).optional(),
  /** Past forms that undo one of the task's actions, beside the shared ones ("recalled" for a renewal). */
  reversals: words.optional(),
  /** Payment card names the customers use: "<name> number" is a card number, never to be asked for. */
  payment_cards: words.optional(),
  /**
   * A forbidden statement excused beside a reply detail (`forbidden_unless`) is not excused when the reply says it
   * comes first ("we'll open a trace first"): the family's policy is about the order of the two.
   */
  first_voids_excuse: z.boolean().optional(),
});

export type TaskLexicon = z.infer<typeof lexiconSchema>;

/** A task's lexicon as the engine reads it: word sets, built once per declaration. */
export interface Lexicon {
  earlierAttempt: Set<string>;
  renewals: Set<string>;
  refundDestinations: Set<string>;
  rateUnits: Set<string>;
  customerOwnObjects: Set<string>;
  thirdParties: Set<string>;
  incidentalModifiers: Set<string>;
  withdrawals: string[][];
  actionNouns: ReadonlyMap<string, readonly string[]>;
  reversals: Set<string>;
  instructionVerbs: Set<string>;
  harmlessCodes: Set<string>;
  paymentCards: string[];
  firstVoidsExcuse: boolean;
}

const lower = (list: string[] | undefined): Set<string> => new Set((list ?? []).map((w) => w.toLowerCase()));

/** "kit" → kit, kits; "box" → box, boxes: the plural a rate unit is said in too. */
function withPlurals(list: string[] | undefined): Set<string> {
  const out = new Set<string>();
  for (const w of list ?? []) {
    const word = w.toLowerCase();
    out.add(word).add(`${word}s`);
    if (/(s|x|z|ch|sh)$/.test(word)) out.add(`${word}es`);
  }
  return out;
}

const compiled = new WeakMap<TaskLexicon, Lexicon>();

/** The lexicon of a task (none declared: an empty one, which lets the engine assume nothing of the domain). */
export function compileLexicon(raw: TaskLexicon | undefined): Lexicon {
  if (!raw) return NO_LEXICON;
  let lexicon = compiled.get(raw);
  if (!lexicon) compiled.set(raw, (lexicon = build(raw)));
  return lexicon;
}

function build(raw: TaskLexicon): Lexicon {
  return {
    earlierAttempt: lower(raw.earlier_attempt?.names),
    renewals: lower(raw.earlier_attempt?.renewals),
    refundDestinations: lower(raw.refund_destinations),
    rateUnits: withPlurals(raw.rate_units),
    customerOwnObjects: lower(raw.customer_own_objects),
    thirdParties: lower(raw.third_parties),
    incidentalModifiers: lower(raw.incidental_modifiers),
    withdrawals: (raw.withdrawals ?? []).map((p) => p.toLowerCase().split(/\s+/)),
    actionNouns: new Map(Object.entries(raw.action_nouns ?? {}).map(([verb, nouns]) => [verb.toLowerCase(), nouns.map((n) => n.toLowerCase())])),
    reversals: lower(raw.reversals),
    instructionVerbs: lower(raw.instruction_verbs),
    harmlessCodes: lower(raw.harmless_codes),
    paymentCards: raw.payment_cards ?? [],
    firstVoidsExcuse: raw.first_voids_excuse ?? false,
  };
}

export const NO_LEXICON: Lexicon = build({});
