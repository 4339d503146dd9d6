import type { TaskLexicon } from '../kit';
import { ACCEPTED_CARD_BRANDS } from '../shared';

/**
 * The words of this family's domain the grader does not know on its own (grader version 3 reads them from each
 * instance's `answer_key.lexicon`).
 */
export const SECURITY_LEXICON: TaskLexicon = {
  // "You'll need to verify your identity by video call": the customer's part of the desk's verification.
  customer_own_objects: ['identity'],
  // "The attacker changed your password" is not the desk saying it did.
  third_parties: ['attacker', 'attackers', 'hacker', 'hackers', 'intruder'],
  // "We reinstated the active sessions" undoes the sign-out as "reinstated the sessions" does.
  incidental_modifiers: ['active'],
  // "You can log in again as normal" withdraws the lock an earlier reply announced.
  withdrawals: ['log in again as normal'],
  // Instructions in the articles may open with them ("Lock the account…", "Revoke every session…").
  instruction_verbs: ['lock', 'revoke'],
  // The company's card brands (src/families/shared/company.ts): "Please reply with your Visa number" asks this
  // family's customer for card details too.
  payment_cards: [...ACCEPTED_CARD_BRANDS],
};
