import type { TaskLexicon } from '../kit';
import { ACCEPTED_CARD_BRANDS } from '../shared';

/**
 * The words of this family's domain the grader does not know on its own (grader version 3 reads them from each
 * instance's `answer_key.lexicon`).
 */
export const LOGISTICS_LEXICON: TaskLexicon = {
  // "Your order went by standard ground, and the replacement ships by overnight courier": the rival shipping option
  // is said of the lost order, the case's option of its replacement.
  earlier_attempt: {
    names: ['order', 'original', 'initial', 'first', 'parcel', 'shipment', 'package'],
    renewals: ['replacement', 'replacements'],
  },
  // "A $150.00 shipping credit per kit" is a rate for each of the goods, another figure than the credit itself.
  rate_units: ['kit', 'badge', 'lanyard', 'box', 'parcel', 'item', 'unit', 'piece', 'package', 'product', 'pack'],
  // "Please share the venue's gate code with the courier" asks for no credential.
  harmless_codes: ['delivery', 'gate', 'door', 'alarm', 'building', 'venue', "venue's", 'dock', 'loading'],
  // The contract notes' instructions open with them ("Ship a replacement by …").
  instruction_verbs: ['dispatch', 'ship'],
  // The policy is about order: "we'll open a trace first" is not excused by the replacement said beside it.
  first_voids_excuse: true,
  // The company's card brands (src/families/shared/company.ts): "Please reply with your Visa number" asks this
  // family's customer for card details too.
  payment_cards: [...ACCEPTED_CARD_BRANDS],
};
