/*
 * The figures each drawn reply set gives each grader version (docs/validity.md, "Drawn instances"), held by
 * drawn-suite.spec.ts for the current version (npm test) and drawn-figures.proof.spec.ts for every version (CI's
 * test:slow).
 */

// The development set's figures under each grader version since 3 (3: before issue 23's fixes; 4 to 11 were made
// against it, so their figures are no evidence). Reading the cases alike (writer and key) is required; the figures are
// what they are, held until a grader version moves them. Logistics' are from its g3, which names the courier's
// collection as the delivery date's other event.
export type Figures = { correct: number; missed: number; adversarial: number; credited: number; penalised: number };
const DEV_FIGURES: Record<number, Record<string, Figures>> = {
  3: {
    billing_duplicate_charge: { correct: 55, missed: 9, adversarial: 55, credited: 15, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 18, adversarial: 52, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 17, adversarial: 65, credited: 20, penalised: 1 },
  },
  4: {
    billing_duplicate_charge: { correct: 55, missed: 2, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 3, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 1, penalised: 1 },
  },
  // Version 5: the first exam set's lessons (made against that set and this one: no evidence either).
  5: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 1, penalised: 1 },
  },
  6: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 1, penalised: 1 },
  },
  7: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 1, penalised: 1 },
  },
  8: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 0, penalised: 1 },
  },
  9: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 0, penalised: 1 },
  },
  10: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 0, penalised: 1 },
  },
  11: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 0, penalised: 1 },
  },
  12: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 0, penalised: 1 },
  },
  13: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 0, penalised: 1 },
  },
  14: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 1, adversarial: 52, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 65, credited: 0, penalised: 1 },
  },
  15: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 0, adversarial: 52, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 65, credited: 0, penalised: 1 },
  },
  16: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 47, missed: 0, adversarial: 52, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 65, credited: 0, penalised: 1 },
  },
};

// The first exam set (written after version 4 was made current and frozen, committed before it was measured,
// measured once: docs/validity.md, "The exam sets"), the record of version 4's exam. Version 5 was then made against
// it, so it is development data for version 5, whose exam is the second set below.
const EXAM_FIGURES: Record<number, Record<string, Figures>> = {
  3: {
    billing_duplicate_charge: { correct: 44, missed: 6, adversarial: 44, credited: 10, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 25, adversarial: 44, credited: 13, penalised: 1 },
    logistics_missing_order_vip: { correct: 44, missed: 12, adversarial: 44, credited: 11, penalised: 0 },
  },
  4: {
    billing_duplicate_charge: { correct: 44, missed: 3, adversarial: 44, credited: 2, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 15, adversarial: 44, credited: 10, penalised: 1 },
    logistics_missing_order_vip: { correct: 44, missed: 3, adversarial: 44, credited: 8, penalised: 0 },
  },
  5: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 44, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  6: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 44, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  7: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 44, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  8: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  9: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  10: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  11: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 44, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 44, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 1, penalised: 0 },
  },
};

// The second exam set (written after version 5 was made current and frozen, committed before it was measured,
// measured once): the record of version 5's exam (and version 4's, for the before). Version 6 was then made against
// it, so it is development data for version 6, whose exam is the third set.
const EXAM_2_FIGURES: Record<number, Record<string, Figures>> = {
  4: {
    billing_duplicate_charge: { correct: 44, missed: 31, adversarial: 55, credited: 4, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 10, adversarial: 50, credited: 12, penalised: 3 },
    logistics_missing_order_vip: { correct: 55, missed: 14, adversarial: 55, credited: 5, penalised: 5 },
  },
  5: {
    billing_duplicate_charge: { correct: 44, missed: 32, adversarial: 55, credited: 3, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 7, adversarial: 50, credited: 11, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 14, adversarial: 55, credited: 5, penalised: 5 },
  },
  6: {
    billing_duplicate_charge: { correct: 44, missed: 3, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 5, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
  },
  7: {
    billing_duplicate_charge: { correct: 44, missed: 3, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 5, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
  },
  8: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  9: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  10: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  11: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 3, adversarial: 50, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 2, adversarial: 50, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 2, adversarial: 50, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
};

// The third exam set (written after version 6 was made current and frozen, committed before it was measured, measured
// once): the record of version 6's exam (version 5's for the before). Version 7 was then made against it.
const EXAM_3_FIGURES: Record<number, Record<string, Figures>> = {
  5: {
    billing_duplicate_charge: { correct: 45, missed: 30, adversarial: 56, credited: 1, penalised: 2 },
    security_compromised_account: { correct: 55, missed: 29, adversarial: 58, credited: 13, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 7, adversarial: 55, credited: 5, penalised: 3 },
  },
  6: {
    billing_duplicate_charge: { correct: 45, missed: 11, adversarial: 56, credited: 1, penalised: 2 },
    security_compromised_account: { correct: 55, missed: 28, adversarial: 58, credited: 11, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 4, adversarial: 55, credited: 4, penalised: 2 },
  },
  7: {
    billing_duplicate_charge: { correct: 45, missed: 5, adversarial: 56, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 16, adversarial: 58, credited: 11, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 4, adversarial: 55, credited: 3, penalised: 0 },
  },
  8: {
    billing_duplicate_charge: { correct: 45, missed: 4, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 7, adversarial: 58, credited: 8, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 4, adversarial: 55, credited: 2, penalised: 0 },
  },
  9: {
    billing_duplicate_charge: { correct: 45, missed: 4, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 6, adversarial: 58, credited: 7, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 4, adversarial: 55, credited: 2, penalised: 0 },
  },
  10: {
    billing_duplicate_charge: { correct: 45, missed: 2, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 6, adversarial: 58, credited: 7, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 4, adversarial: 55, credited: 2, penalised: 0 },
  },
  11: {
    billing_duplicate_charge: { correct: 45, missed: 2, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 6, adversarial: 58, credited: 7, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 4, adversarial: 55, credited: 2, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 45, missed: 1, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 6, adversarial: 58, credited: 6, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 3, adversarial: 55, credited: 2, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 45, missed: 1, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 6, adversarial: 58, credited: 6, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 3, adversarial: 55, credited: 2, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 45, missed: 1, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 6, adversarial: 58, credited: 6, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 3, adversarial: 55, credited: 2, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 1, adversarial: 58, credited: 6, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 3, adversarial: 55, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 1, adversarial: 58, credited: 6, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 3, adversarial: 55, credited: 0, penalised: 0 },
  },
};

// The fourth exam set (written after version 7 was made current and frozen, committed before it was measured, measured
// once): the record of version 7's exam, the current grader's (version 6's for the before). The writers put the
// resolution's amount inside its code ("refund_issued (amount 800.00)"); it was moved to the amount field before
// measuring, and every amount matches the answer key.
const EXAM_4_FIGURES: Record<number, Record<string, Figures>> = {
  6: {
    billing_duplicate_charge: { correct: 55, missed: 15, adversarial: 66, credited: 12, penalised: 2 },
    security_compromised_account: { correct: 55, missed: 26, adversarial: 66, credited: 2, penalised: 5 },
    logistics_missing_order_vip: { correct: 44, missed: 2, adversarial: 44, credited: 1, penalised: 0 },
  },
  7: {
    billing_duplicate_charge: { correct: 55, missed: 14, adversarial: 66, credited: 12, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 18, adversarial: 66, credited: 2, penalised: 5 },
    logistics_missing_order_vip: { correct: 44, missed: 2, adversarial: 44, credited: 1, penalised: 0 },
  },
  // Version 8 was made against this set: development data for it, whose exam is the fifth set.
  8: {
    billing_duplicate_charge: { correct: 55, missed: 6, adversarial: 66, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 2, adversarial: 44, credited: 0, penalised: 0 },
  },
  9: {
    billing_duplicate_charge: { correct: 55, missed: 5, adversarial: 66, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 2, adversarial: 44, credited: 0, penalised: 0 },
  },
  10: {
    billing_duplicate_charge: { correct: 55, missed: 3, adversarial: 66, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 2, adversarial: 44, credited: 0, penalised: 0 },
  },
  11: {
    billing_duplicate_charge: { correct: 55, missed: 3, adversarial: 66, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 0, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 55, missed: 2, adversarial: 66, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 0, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 55, missed: 2, adversarial: 66, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 0, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 55, missed: 2, adversarial: 66, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 0, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 66, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 55, missed: 1, adversarial: 66, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 44, credited: 0, penalised: 0 },
  },
};

// The fifth exam set (written after version 8 was made current and frozen and security's generator g5 merged,
// committed before it was measured, measured once): the record of version 8's exam (version 7's
// for the before). All 33 writers' readings match the answer keys, amounts included.
const EXAM_5_FIGURES: Record<number, Record<string, Figures>> = {
  7: {
    billing_duplicate_charge: { correct: 44, missed: 6, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 16, adversarial: 55, credited: 4, penalised: 2 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 2, penalised: 0 },
  },
  8: {
    billing_duplicate_charge: { correct: 44, missed: 5, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 13, adversarial: 55, credited: 4, penalised: 2 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 2, penalised: 0 },
  },
  // Version 9 was made against this set: development data for it.
  9: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  10: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  11: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 4, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 3, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 1, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 1, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 1, adversarial: 55, credited: 3, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
};

// The sixth exam set (written after version 9 was made current and frozen, committed before it was measured, measured
// once): the record of version 9's exam, the current grader's (version 8's for the before). All 33 writers' readings
// match the answer keys, amounts included.
const EXAM_6_FIGURES: Record<number, Record<string, Figures>> = {
  8: {
    billing_duplicate_charge: { correct: 47, missed: 4, adversarial: 55, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 44, missed: 7, adversarial: 55, credited: 1, penalised: 1 },
    logistics_missing_order_vip: { correct: 44, missed: 2, adversarial: 54, credited: 1, penalised: 1 },
  },
  9: {
    billing_duplicate_charge: { correct: 47, missed: 4, adversarial: 55, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 44, missed: 6, adversarial: 55, credited: 1, penalised: 1 },
    logistics_missing_order_vip: { correct: 44, missed: 2, adversarial: 54, credited: 1, penalised: 1 },
  },
  // Version 10 was made against this set: development data for it.
  10: {
    billing_duplicate_charge: { correct: 47, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 54, credited: 0, penalised: 0 },
  },
  11: {
    billing_duplicate_charge: { correct: 47, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 54, credited: 0, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 47, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 54, credited: 0, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 47, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 54, credited: 0, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 47, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 54, credited: 0, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 47, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 54, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 47, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 54, credited: 0, penalised: 0 },
  },
};

// The seventh exam set (written after version 10 was made current and frozen, committed before it was measured,
// measured once): the record of version 10's exam (version 9's for the before). All 33 writers' readings match the
// answer keys, amounts included.
const EXAM_7_FIGURES: Record<number, Record<string, Figures>> = {
  9: {
    billing_duplicate_charge: { correct: 45, missed: 5, adversarial: 55, credited: 3, penalised: 1 },
    security_compromised_account: { correct: 45, missed: 6, adversarial: 57, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 6, adversarial: 56, credited: 2, penalised: 0 },
  },
  10: {
    billing_duplicate_charge: { correct: 45, missed: 5, adversarial: 55, credited: 3, penalised: 1 },
    security_compromised_account: { correct: 45, missed: 6, adversarial: 57, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 6, adversarial: 56, credited: 2, penalised: 0 },
  },
  // Version 11 was made against this set: development data for it.
  11: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 45, missed: 0, adversarial: 57, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 45, missed: 0, adversarial: 57, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 45, missed: 0, adversarial: 57, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 45, missed: 0, adversarial: 57, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 45, missed: 0, adversarial: 57, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 45, missed: 0, adversarial: 57, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
};

// The eighth exam set (written after version 11 was made current and frozen, committed before it was measured,
// measured once): the record of version 11's exam, the current grader's (version 10's for the before). Security's is
// the first set on its generator g6. All 33 writers' readings match the answer keys, amounts included.
const EXAM_8_FIGURES: Record<number, Record<string, Figures>> = {
  10: {
    billing_duplicate_charge: { correct: 45, missed: 2, adversarial: 55, credited: 1, penalised: 3 },
    security_compromised_account: { correct: 55, missed: 11, adversarial: 65, credited: 6, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 5, adversarial: 56, credited: 3, penalised: 1 },
  },
  11: {
    billing_duplicate_charge: { correct: 45, missed: 2, adversarial: 55, credited: 1, penalised: 3 },
    security_compromised_account: { correct: 55, missed: 10, adversarial: 65, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 4, adversarial: 56, credited: 3, penalised: 1 },
  },
  // Version 12 was made against this set: development data for it.
  12: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 3, adversarial: 65, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 56, credited: 0, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 3, adversarial: 65, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 56, credited: 0, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 3, adversarial: 65, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 1, adversarial: 56, credited: 0, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 2, adversarial: 65, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 45, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 2, adversarial: 65, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
};

// The ninth exam set (written by three new helpers while version 12 was being finished, not read until version 12 was
// made current and frozen, committed before it was measured, measured once): the record of version 12's exam, the
// current grader's (version 11's for the before). All 33 writers' readings match the answer keys, amounts included.
const EXAM_9_FIGURES: Record<number, Record<string, Figures>> = {
  11: {
    billing_duplicate_charge: { correct: 44, missed: 2, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 46, missed: 9, adversarial: 66, credited: 6, penalised: 1 },
    logistics_missing_order_vip: { correct: 55, missed: 6, adversarial: 56, credited: 1, penalised: 0 },
  },
  12: {
    billing_duplicate_charge: { correct: 44, missed: 2, adversarial: 55, credited: 1, penalised: 0 },
    security_compromised_account: { correct: 46, missed: 9, adversarial: 66, credited: 5, penalised: 1 },
    logistics_missing_order_vip: { correct: 55, missed: 6, adversarial: 56, credited: 1, penalised: 0 },
  },
  // Version 13 was made against this set: development data for it.
  13: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 46, missed: 2, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 46, missed: 2, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 46, missed: 1, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 46, missed: 1, adversarial: 66, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 56, credited: 0, penalised: 0 },
  },
};

// The tenth exam set (written by three new helpers while version 13 was being finished, not read until version 13 was
// made current and frozen, committed before it was measured, measured once): the record of version 13's exam, the
// current grader's (version 12's for the before). All 33 writers' readings match the answer keys, amounts included.
const EXAM_10_FIGURES: Record<number, Record<string, Figures>> = {
  12: {
    billing_duplicate_charge: { correct: 46, missed: 3, adversarial: 55, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 18, adversarial: 55, credited: 6, penalised: 2 },
    logistics_missing_order_vip: { correct: 44, missed: 6, adversarial: 55, credited: 1, penalised: 0 },
  },
  13: {
    billing_duplicate_charge: { correct: 46, missed: 3, adversarial: 55, credited: 0, penalised: 1 },
    security_compromised_account: { correct: 55, missed: 18, adversarial: 55, credited: 6, penalised: 2 },
    logistics_missing_order_vip: { correct: 44, missed: 6, adversarial: 55, credited: 1, penalised: 0 },
  },
  // Version 14 was made against this set: development data for it.
  14: {
    billing_duplicate_charge: { correct: 46, missed: 2, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 10, adversarial: 55, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 3, adversarial: 55, credited: 1, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 46, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 2, adversarial: 55, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 46, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 55, missed: 2, adversarial: 55, credited: 4, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
  },
};

// The eleventh exam set (written by three new helpers while version 14 was being finished, not read until version 14
// was made current and frozen, committed before it was measured, measured once): the record of version 14's exam, the
// current grader's (version 13's for the before). All 33 writers' readings match the answer keys, amounts included.
const EXAM_11_FIGURES: Record<number, Record<string, Figures>> = {
  13: {
    billing_duplicate_charge: { correct: 44, missed: 3, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 4, adversarial: 55, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 12, adversarial: 55, credited: 2, penalised: 0 },
  },
  14: {
    billing_duplicate_charge: { correct: 44, missed: 3, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 4, adversarial: 55, credited: 1, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 12, adversarial: 55, credited: 2, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 2, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 44, missed: 1, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 2, adversarial: 55, credited: 0, penalised: 0 },
    logistics_missing_order_vip: { correct: 55, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
};

// The twelfth exam set (written by three new helpers after version 15 was made current and frozen, committed before
// it was measured, measured once): the record of version 15's exam (version 14's for the before). All 33 writers'
// readings match the answer keys, amounts included.
const EXAM_12_FIGURES: Record<number, Record<string, Figures>> = {
  14: {
    billing_duplicate_charge: { correct: 44, missed: 3, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 2, adversarial: 55, credited: 5, penalised: 1 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 55, credited: 2, penalised: 0 },
  },
  15: {
    billing_duplicate_charge: { correct: 44, missed: 3, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 2, adversarial: 55, credited: 4, penalised: 1 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 55, credited: 2, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
    security_compromised_account: { correct: 44, missed: 0, adversarial: 55, credited: 2, penalised: 0 },
    logistics_missing_order_vip: { correct: 44, missed: 0, adversarial: 55, credited: 0, penalised: 0 },
  },
};

// The thirteenth exam set (written by three new helpers after version 16 was made current and frozen, committed
// before it was measured, measured once): the record of version 16's exam, the current grader's (version 15's for the
// before). All 33 writers' readings match the answer keys, amounts included.
const EXAM_13_FIGURES: Record<number, Record<string, Figures>> = {
  15: {
    billing_duplicate_charge: { correct: 44, missed: 5, adversarial: 66, credited: 3, penalised: 1 },
    security_compromised_account: { correct: 44, missed: 2, adversarial: 55, credited: 3, penalised: 1 },
    logistics_missing_order_vip: { correct: 55, missed: 5, adversarial: 55, credited: 2, penalised: 0 },
  },
  16: {
    billing_duplicate_charge: { correct: 44, missed: 5, adversarial: 66, credited: 3, penalised: 1 },
    security_compromised_account: { correct: 44, missed: 1, adversarial: 55, credited: 3, penalised: 1 },
    logistics_missing_order_vip: { correct: 55, missed: 5, adversarial: 55, credited: 2, penalised: 0 },
  },
};

export const SETS = [
  ['drawn-dev', DEV_FIGURES],
  ['drawn-exam', EXAM_FIGURES],
  ['drawn-exam-2', EXAM_2_FIGURES],
  ['drawn-exam-3', EXAM_3_FIGURES],
  ['drawn-exam-4', EXAM_4_FIGURES],
  ['drawn-exam-5', EXAM_5_FIGURES],
  ['drawn-exam-6', EXAM_6_FIGURES],
  ['drawn-exam-7', EXAM_7_FIGURES],
  ['drawn-exam-8', EXAM_8_FIGURES],
  ['drawn-exam-9', EXAM_9_FIGURES],
  ['drawn-exam-10', EXAM_10_FIGURES],
  ['drawn-exam-11', EXAM_11_FIGURES],
  ['drawn-exam-12', EXAM_12_FIGURES],
  ['drawn-exam-13', EXAM_13_FIGURES],
] as const;

