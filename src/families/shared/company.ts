/*
 * Facts about the company every family's desk works for. One company serves the customers of all the families
 * (billing, logistics and account security alike), so what it accepts or offers is the same in each, not one
 * family's content.
 */

/**
 * The payment-card brands the company accepts, in the order billing's generator draws a customer's card from (the
 * order is part of what a seed draws: changing it changes billing's instances). Every family's task lexicon declares
 * them as payment cards, so a reply asking any customer for "your Visa number" asks for card details.
 */
export const ACCEPTED_CARD_BRANDS: readonly string[] = ['Visa', 'Mastercard', 'Amex'];
