import type { TaskLexicon } from '../kit';
import { ACCEPTED_CARD_BRANDS } from '../shared';

/**
 * The words of this family's domain the grader does not know on its own (grader version 3 reads them from each
 * instance's `answer_key.lexicon`). The card brands are the company's (src/families/shared/company.ts), the list the
 * generator draws the customer's card from, so a brand the company starts accepting is known to the grader at once.
 */
export const BILLING_LEXICON: TaskLexicon = {
  // "We've refunded $348.00 to your Visa": money goes back to the card, not to something else.
  refund_destinations: [...ACCEPTED_CARD_BRANDS],
  // "Please reply with your full Amex number" asks for card details.
  payment_cards: [...ACCEPTED_CARD_BRANDS],
  // The articles' instructions may open with it ("Refund the duplicate charge…").
  instruction_verbs: ['refund'],
};
