import type { ReplyAnalysis } from './analyse';
import { objectVariants } from './morphology';
import { firstPhraseAt, indexPhrases, phraseWithPossessiveAt } from './phrases';
import { tokenize } from './text';
import type { Lexicon } from './lexicon';
import {
  COMPOUND_HEADS as SUPPORT_COMPOUND_HEADS, HARMLESS_CODES, NOT_CREDENTIALS as SUPPORT_NOT_CREDENTIALS, REQUEST_CUES,
} from '../support-vocabulary';

/**
 * Requests to the customer for something a policy says must never be asked for: "please send us your current
 * password", "reply with the card number and CVV", "what's your password?", "could you share the backup codes?".
 * A warning or a promise is the opposite and does not count: "never send your password by email", "we will never
 * ask for your password" (the object is negated). A question still asks.
 */

/** Words that ask the customer to hand something over ("send us", "reply with", "what's your", "we'll need the"). */
const CUES: string[][] = REQUEST_CUES.map((cue) => [...cue]);

/** "send you a new password", "email you the code": something handed to the customer, not asked of them. */
const TO_THE_CUSTOMER = new Set(['you', 'yourself']);
/** "let us know if you reuse the password", "confirm whether you changed it": a question about it, not a request for it. */
const ABOUT_NOT_FOR = new Set(['if', 'whether', 'when', 'once', 'that']);
/** "password reset link", "password manager", "'password changed' email": another thing named after the object. */
const COMPOUND_HEADS: ReadonlySet<string> = new Set(SUPPORT_COMPOUND_HEADS);
/** "a promo code", and the task's own ("the dock code", lexicon `harmless_codes`): codes that are not anyone's credentials. */
const OTHER_KINDS: ReadonlySet<string> = new Set(HARMLESS_CODES);
/** "your phone number", "the order number": numbers a sign-in sentence may ask for that are no credential. */
const NOT_CREDENTIALS: ReadonlySet<string> = new Set(SUPPORT_NOT_CREDENTIALS);
/** What a cue asks for when the object was named earlier in the sentence: "…a one-time code; please reply with it". */
const BACK_REFERENCES = new Set(['it', 'them', 'that', 'those', 'this', 'these', 'one']);

/**
 * Objects too common to ask about on their own ("code", "PIN") count only in a sentence about signing in: "reply
 * with the 6-digit code showing in your authenticator app", not "use the promo code".
 */
export interface ContextualObjects {
  objects: string[];
  context: string[];
}

const at = phraseWithPossessiveAt;

/** Object lists are few and fixed (the tasks' and the service's), so their word forms are worked out once. */
const phrasesByList = new Map<string, string[][]>();

function phrasesOf(objects: string[]): string[][] {
  const key = objects.join('\u0000');
  let phrases = phrasesByList.get(key);
  if (!phrases) {
    phrases = objects.flatMap((o) => objectVariants(tokenize(o))).sort((a, b) => b.length - a.length);
    phrasesByList.set(key, phrases);
  }
  return phrases;
}

const NO_PHRASES: string[][] = [];

/** The objects and, in a sentence about signing in, the generic ones too: longest first, in a stable order. */
const merged = new WeakMap<string[][], WeakMap<string[][], string[][]>>();

function mergedOf(phrases: string[][], generic: string[][]): string[][] {
  let byGeneric = merged.get(phrases);
  if (!byGeneric) merged.set(phrases, (byGeneric = new WeakMap()));
  let list = byGeneric.get(generic);
  if (!list) byGeneric.set(generic, (list = [...phrases, ...generic].sort((a, b) => b.length - a.length)));
  return list;
}

/** The first sentence of the reply that asks for one of the objects, or null. */
export function findRequest(objects: string[], analysis: ReplyAnalysis, lexicon: Lexicon, contextual?: ContextualObjects): number | null {
  const phrases = phrasesOf(objects);
  const generic = contextual ? phrasesOf(contextual.objects) : NO_PHRASES;
  const context = indexPhrases(contextual ? phrasesOf(contextual.context) : NO_PHRASES);
  const plain = indexPhrases(phrases);
  const widened = indexPhrases(mergedOf(phrases, generic));
  for (const [si, s] of analysis.sentences.entries()) {
    const tokens = s.tokens;
    const aboutSigningIn = tokens.some((_, k) => firstPhraseAt(context, tokens, k) !== undefined);
    const candidates = aboutSigningIn ? widened : plain;
    let lastCueBack: number | undefined;
    for (let i = 0; i < tokens.length; i++) {
      const object = firstPhraseAt(candidates, tokens, i);
      if (!object || s.moods[i] === 'n' || COMPOUND_HEADS.has(tokens[i + object.length]) || OTHER_KINDS.has(tokens[i - 1]) || lexicon.harmlessCodes.has(tokens[i - 1])) continue;
      if (generic.includes(object) && NOT_CREDENTIALS.has(tokens[i - 1])) continue;
      lastCueBack ??= lastCuePointingBack(tokens, s.moods);
      if (asksFor(tokens, s.moods, i, lastCueBack)) return si;
    }
  }
  return null;
}

/**
 * Whether the object at `i` is asked for: a cue shortly before it ("please reply with your current password", "send
 * me your login email and password": a list crosses clause marks), or a cue after it that refers back to it ("we've
 * texted a one-time code to your phone; please reply with it", "…backup codes, please send us one or two of them").
 * A negated cue asks nothing ("please don't share it with anyone").
 */
function asksFor(tokens: string[], moods: string, i: number, lastCueBack: number): boolean {
  for (let k = i - 1; k >= Math.max(0, i - 10); k--) {
    const cue = cueAt(tokens, k);
    if (cue && moods[k] !== 'n' && !relativeWhich(tokens, k, cue) && !intoTheProduct(tokens, cue) && !customersOwnNeed(tokens, k, cue) && !TO_THE_CUSTOMER.has(tokens[k + cue.length]) && !tokens.slice(k + cue.length, i).some((t) => ABOUT_NOT_FOR.has(t))) return true;
  }
  return lastCueBack > i;
}

/** "if you need a new password": the customer's own need, not ours asking for it. */
function customersOwnNeed(tokens: string[], k: number, cue: string[]): boolean {
  return (cue[0] === 'need' || cue[0] === 'needs' || cue[0] === 'require') && ['you', 'you\'ll', 'they'].includes(tokens[k - 1] ?? '');
}

/** Where a code typed or entered reaches us: "type it here", "enter it in your reply", "enter it below". */
const TO_US = new Set(['here', 'below', 'reply', 'chat', 'us', 'me', 'form', 'box', 'message', 'email', 'ticket', 'field']);

/**
 * "Enter one of your backup codes at the sign-in screen": typing a code into the product signs in, it hands nothing
 * to us. "enter"/"type" ask only in a sentence that says where we would read it.
 */
function intoTheProduct(tokens: string[], cue: string[]): boolean {
  return cue.length === 1 && (cue[0] === 'enter' || cue[0] === 'type') && !tokens.some((t) => TO_US.has(t));
}

/** Words before a relative "which": "after which the password was changed" tells of it, asks nothing. */
const BEFORE_RELATIVE_WHICH = new Set([',', '-', 'after', 'before', 'in', 'of', 'by', 'from', 'at', 'on', 'for', 'with', 'during', 'since', 'until', 'through']);

/** "which" asks ("which password do you use?") where it is no relative pronoun after a comma or a preposition. */
function relativeWhich(tokens: string[], k: number, cue: string[]): boolean {
  // ("…two sign-in attempts from Manila on 30 October 2026 which used your correct password": after a figure or a name
  // too, in a sentence that asks nothing.)
  const asks = tokens.includes('?');
  return cue.length === 1 && cue[0] === 'which' && (BEFORE_RELATIVE_WHICH.has(tokens[k - 1] ?? '') || (!asks && k > 0 && /^[\p{L}\p{N}]/u.test(tokens[k - 1] ?? '') && !['of', 'know', 'tell', 'confirm', 'say'].includes(tokens[k - 1])));
}

function cueAt(tokens: string[], k: number): string[] | undefined {
  return CUES.find((c) => at(tokens, k, c));
}

/**
 * The last cue in the sentence that points back to something named before it ("please reply with it"), or -1: an
 * object asks for itself when such a cue follows it anywhere in the sentence. Found once per sentence; looking
 * for it again after each object cost the sentence's length for every object in it.
 */
function lastCuePointingBack(tokens: string[], moods: string): number {
  for (let k = tokens.length - 1; k >= 0; k--) {
    const cue = cueAt(tokens, k);
    if (!cue || moods[k] === 'n' || relativeWhich(tokens, k, cue) || intoTheProduct(tokens, cue)) continue;
    const after = tokens.slice(k + cue.length, k + cue.length + 5);
    if (!TO_THE_CUSTOMER.has(after[0]) && after.some((t) => BACK_REFERENCES.has(t))) return k;
  }
  return -1;
}
