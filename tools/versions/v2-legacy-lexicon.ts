import type { TaskLexicon } from '../../src/engine/graders/v3/claims/lexicon';

/**
 * Exactly the domain words grader version 2 holds in its code (/work/v3-inventory.md §1.1, class c), written as a
 * task lexicon: given it, version 3 must judge version 2's frozen corpus as version 2 does (grader-v3-equivalence.proof.spec.ts).
 * One lexicon for every family, because version 2 applies each list to every task. Test material only: a family's
 * generator (g2) declares its own part.
 */
export const LEGACY_LEXICON: TaskLexicon = {
  earlier_attempt: { names: ['order', 'original', 'initial', 'first', 'parcel', 'shipment', 'package'], renewals: ['replacement', 'replacements'] },
  refund_destinations: ['visa', 'mastercard', 'amex'],
  rate_units: ['kit', 'item', 'unit', 'piece', 'box', 'package', 'parcel', 'badge', 'lanyard', 'product', 'pack'],
  customer_own_objects: ['identity'],
  third_parties: ['attacker', 'attackers', 'hacker', 'hackers', 'intruder'],
  incidental_modifiers: ['active'],
  withdrawals: ['log in again as normal'],
  instruction_verbs: ['refund', 'dispatch', 'ship', 'transfer', 'lock', 'revoke'],
  harmless_codes: ['delivery', 'gate', 'door', 'alarm', 'building', 'venue', "venue's", 'dock', 'loading'],
  payment_cards: ['Visa', 'Mastercard', 'Amex'],
  first_voids_excuse: true,
};
