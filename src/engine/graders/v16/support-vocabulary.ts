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

/**
 * Frequent verbs in support replies that no ending gives away ("arrive", "settle", "ship", "restore"): a finite
 * verb for the rule that tells a sentence from a keyword list. Words that are as often nouns ("refund", "lock",
 * "call") are left out: in a keyword list they are nouns. The last five give advice ("Please check your spam folder").
 */
export const COMMON_VERBS = [
  'allow', 'arrive', 'arrives', 'expect', 'settle', 'settles', 'take', 'takes', 'took', 'ship', 'ships', 'go', 'goes',
  'went', 'gone', 'send', 'sends', 'sent', 'see', 'get', 'gets', 'got', 'let', 'make', 'makes', 'made', 'give', 'gives',
  'gave', 'reach', 'reaches', 'stay', 'stays', 'remain', 'remains', 'come', 'comes', 'appear', 'appears', 'show',
  'shows', 'keep', 'keeps', 'kept', 'put', 'set', 'pay', 'paid', 'need', 'needs', 'land', 'lands', 'note', 'apply',
  'applies', 'deliver', 'delivers', 'reply', 'contact', 'use',
  'restore', 'receive', 'receives', 'know', 'knew', 'known', 'tell', 'told', 'say', 'said', 'ask', 'asks', 'mean',
  'means', 'meant', 'done', 'begin', 'began', 'run', 'runs', 'hold', 'holds', 'held', 'leave', 'left', 'bring',
  'brought', 'cover', 'covers', 'returns', 'works', 'happen', 'happens', 'expires', 'expire', 'lasts', 'thank', 'thanks', 'hope', 'follow', 'follows', 'stand', 'stands',
  // Advice to the customer is given with these, often as a bare instruction: "Please check your spam folder."
  'check', 'review', 'recommend', 'suggest', 'look', 'peek', 'glance',
  // Irregular pasts a report opens with: "the second $450.00 charge … came from an automatic gateway retry".
  'came', 'became', 'saw', 'found', 'caught', 'lost', 'stood', 'wrote', 'sat', 'fell', 'drew', 'grew', 'ran', 'rose',
  // Too short for the -ing rule: "Replacement going out express, no charge."
  'going', 'doing',
  // ("Our sign-in checks shut every one of them out.")
  'shut',
  // Too short for the -ed rule: "On your balance within 4 business days, used against your next invoice."
  'used',
] as const;

/**
 * The nouns of the desk's actions, by verb ("revoke" → "revocation", "lock" → "lock", "lockout"): an action claim
 * declared by its verb is also stated by its noun ("the revocation of your keys"). An empty list: the verb has no
 * noun that names the act ("secure", "end"), so none is derived.
 */
export const ACTION_NOUNS: Readonly<Record<string, readonly string[]>> = {
  verify: ['verification'], revoke: ['revocation'], suspend: ['suspension'], delete: ['deletion'], lock: ['lock', 'lockout', 'lock-out'],
  check: ['check'], freeze: ['freeze'], close: ['closure'], confirm: ['confirmation'], disable: [], block: ['block'],
  secure: [], end: [], kill: [], sign: ['sign-out', 'signout', 'sign-off'], log: ['logout', 'log-out'], invalidate: ['invalidation'],
  deactivate: ['deactivation'], terminate: ['termination'], cancel: ['cancellation'], reset: ['reset'],
};

/**
 * Other verbs support replies use for a declared action verb, by verb: a claim declared with "look" is also stated
 * with "peek" ("peek in your spam folder"); one declared with "sign out" with "kick out" ("kicked out every
 * session"). Words with one meaning in a support reply only: no "drop", no "clear".
 */
export const VERB_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  look: ['peek', 'glance'],
  check: ['peek', 'look over', 'go over', 'go through', 'look through'],
  review: ['look over', 'go over', 'go through', 'look through'],
  'sign out': ['kick out', 'boot out', 'log off', 'sign off'],
  // ("Get in with a backup code", "our sign-in checks shut every one of them out".)
  'sign in with': ['get in with'],
  'log in with': ['get in with'],
  block: ['shut out'],
  'log out': ['kick out', 'boot out', 'log off', 'sign off'],
};

/**
 * Action verbs whose base form is also a noun ("put a lock on your account", "a video identity check"): after a
 * determiner they are read as the noun, which states the act.
 */
export const NOUN_READING = ['lock', 'check', 'freeze', 'block', 'reset', 'end', 'close'] as const;

/**
 * Past forms that undo an action the desk took ("then unlocked it again", "the keys were reinstated"): said of a
 * claimed action's object, they deny it. Past forms only: "we will unlock it once verified" is the plan.
 */
export const REVERSALS = [
  'unlocked', 'unfrozen', 'unsuspended', 'reinstated', 'restored', 'reactivated', 're-enabled', 'reopened', 'undone',
  'undid', 'lifted', 'cancelled', 'canceled', 'reversed',
] as const;

/** What the customer does for an offer to go ahead ("reply to confirm and we'll refund it"): such an offer waits on them. */
export const CUSTOMER_ACTS = ['reply', 'respond', 'confirm', 'send', 'click', 'call', 'tell', 'answer', 'approve'] as const;

/** Words that ask the customer to hand something over ("send us", "reply with", "what's your", "we'll need the"). */
export const REQUEST_CUES: readonly (readonly string[])[] = [
  ['send'], ['share'], ['provide'], ['reply'], ['respond', 'with'], ['write', 'back'], ['write', 'us'], ['tell', 'us'],
  ['tell', 'me'], ['give', 'us'], ['give', 'me'], ['confirm'], ['let', 'us', 'know'], ['let', 'me', 'know'], ['email', 'us'],
  ['email', 'me'], ['text', 'us'], ['dm', 'us'], ['message', 'us'], ['forward'], ['include'], ['attach'], ['upload'], ['post'],
  ['pass'], ['jot'], ['type'], ['enter'], ['need', 'your'], ['need', 'the'], ['need', 'a'], ['needs', 'it'], ['require', 'your'],
  ['require', 'the'], ["what's", 'your'], ["what's", 'the'], ['what', 'is', 'your'], ['what', 'is', 'the'], ['what', 'was', 'your'],
  ['which'], ['read', 'out'], ['read', 'us'], ['read', 'back'], ['dictate'],
];

/** "password reset link", "password manager", "'password changed' email": another thing named after a credential. */
export const COMPOUND_HEADS = [
  'reset', 'resets', 'manager', 'managers', 'policy', 'policies', 'rules', 'requirements', 'strength', 'change', 'changes',
  'changed', 'hint', 'hints', 'protected', 'field', 'email', 'emails', 'notification', 'notifications', 'alert', 'alerts',
] as const;

/** "your phone number", "the ticket number": numbers a sign-in sentence may ask for that are no credential. */
export const NOT_CREDENTIALS = ['phone', 'mobile', 'telephone', 'contact', 'account', 'invoice', 'ticket', 'order', 'case', 'tracking', 'serial', 'model'] as const;

/** A customer's account, order or invoice identifier ("ACC-20931", "INV-4471"): naming another customer's is disclosure (global: read with String.match). */
export const CUSTOMER_IDENTIFIER = /\b[A-Z]{2,5}-\d{3,}\b/g;

/**
 * Support-work words of the other languages agents answer in, counted with their function words to tell a reply
 * not written in English: Spanish "tarjeta" (card), Portuguese "prazo" (deadline).
 */
export const FOREIGN_SUPPORT_WORDS = ['tarjeta', 'prazo'] as const;

/**
 * What marks agent-facing runbook text in a reply (the knowledge base's template): its headings, internal labels,
 * article codes, and sentences written to the agent about the customer. A reply carrying one quotes internal policy.
 */
export const RUNBOOK_MARKERS: readonly RegExp[] = [
  // Runbook headings, at the head of a line ("Here's what to do: nothing." is ordinary English).
  /^when it applies\s*:/, /^what to do\s*:/, /what to tell the customer/, /^exceptions\s*:/, /\[internal\]/, /^internal\s*:/,
  /agent (notes|steps)/, /\[agent\b/, /\bper kb-/, /\bkb-[a-z]{2,4}-\d{2,4}\b/, /^(notes?|internal notes?) for (the )?agent/,
  // Written to the agent, not the customer: "Per policy: tell the customer that...".
  /^per (our |the )?(policy|runbook|procedure|guidelines?)\s*:/, /\btell (the )?customer\b/, /^policy (reference|says|states|text)\b/,
  // "Hi Lars, per our procedure: 'What to do: send a new…'": the runbook quoted after a greeting.
  /\bper (our |the )?(policy|runbook|procedure|guidelines?)\s*:\s*['"‘“]/, /['"‘“](when it applies|what to do|exceptions)\s*:/,
  // A note to a colleague, not a message to the customer: "Internal note for billing:", "Note to VIP Concierge:".
  /^(internal )?notes? (for|to) /,
  // "Hi Rafael - notes for you: 'Tier-1 refunds at most…'": a note handed over, not a message written to the customer.
  /\bnotes? for you\s*:/,
];

/**
 * Verbs a desk runbook's instructions open with ("Set priority…", "Escalate to…", "Never ask…"): outside a runbook's
 * sections, an article sentence opening with one is agent-facing. A task adds its own (lexicon `instruction_verbs`).
 */
export const INSTRUCTION_VERBS = [
  'set', 'route', 'resolve', 'approve', 'confirm', 'open', 'escalate', 'do', "don't", 'apply',
  'send', 'check', 'treat', 'use', 'offer', 'tell', 'ask', 'explain', 'read', 'priority', 'verify',
  'never', 'always', 'close', 'reply',
] as const;
