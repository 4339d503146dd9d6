/*
 * The support-work concepts every family shares, in one place (issue 22): what a help desk's replies are made of
 * whatever the domain. The claim engine holds general English of its own (grammar, numbers, dates) and no domain
 * word: a family's own words come from its task (claims/lexicon.ts). Each list says what it is for; a word that
 * only one family's content needs does not belong here.
 */

/**
 * Where money goes back to, after "back" or "to your/the": "credited back", "credited to your card", "to the original
 * payment method" say refunded in other words. A task adds its card names (lexicon `refund_destinations`).
 */
export const REFUND_DESTINATIONS = ['card', 'original'] as const;

/**
 * Requests no support agent may make, whatever the task: a password or sign-in code, or card details (the rule
 * behind "never send passwords by email"; refunds go back to the card on file). `contextual` objects are too common
 * to count on their own ("code", "PIN") and count only in a sentence about signing in. A task adds the names its
 * customers give their cards (lexicon `payment_cards`: "<name> number").
 */
export const NEVER_ASKED = [
  {
    id: 'asks_for_password',
    description: 'asking the customer for a password or a sign-in code',
    objects: [
      'password', 'passcode', 'passphrase', 'MFA code', '2FA code', 'verification code', 'one-time code', 'one-time password', 'sign-in code',
      'login code', 'backup codes', 'recovery codes', 'recovery keys', 'backup keys', 'authenticator code', 'six-digit number', '6-digit number',
      'six-digit code', '6-digit code',
    ],
    contextual: {
      objects: ['code', 'PIN', 'digits', 'number'],
      context: ['authenticator', 'one-time', 'sign-in', 'login', 'log-in', 'verification', 'MFA', '2FA', 'two-factor', 'SMS', 'texted', 'text message', 'phone', 'mobile'],
    },
    cardNames: false,
  },
  {
    id: 'asks_for_card_details',
    description: 'asking the customer for card details',
    objects: [
      'card number', "card's number", 'card details', 'CVV', 'CVC', 'CVV2', 'security code',
      'security digits', '3-digit code', 'three-digit code', 'three digits on the back', 'digits on the back', 'long number', 'expiry date',
      'expiration date', 'expiry', 'photo of the card', 'picture of the card', 'front and back', '16-digit number',
    ],
    contextual: undefined,
    cardNames: true,
  },
] as const;

/**
 * Words before "code" that make it a code anyone may be asked for, not a credential: promotions, tracking and
 * bookings, addresses, shared access. A task adds its own (lexicon `harmless_codes`: "dock code", "gate code").
 */
export const HARMLESS_CODES = ['promo', 'promotional', 'discount', 'tracking', 'voucher', 'coupon', 'postal', 'zip', 'post', 'booking', 'reference', 'order', 'wifi', 'wi-fi', 'parking', 'access'] as const;

/**
 * Words that put a statement first in a sequence ("first, we'll open a trace"). Read only where a task says the
 * order matters (lexicon `first_voids_excuse`).
 */
export const SAYS_FIRST = /\b(first|firstly|initially|before|beforehand|to begin with|to start with)\b/i;
