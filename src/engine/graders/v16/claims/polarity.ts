import { clauseIds, hardSegment } from './clauses';
import { CUSTOMER_ACTS as SUPPORT_CUSTOMER_ACTS } from '../support-vocabulary';
import { NO_LEXICON, type Lexicon } from './lexicon';

/**
 * The stance of every token, one character each:
 *   a  asserted: stated as done, true or scheduled;
 *   n  negated: inside the scope of a negation ("not", "no", "never", "n't", "cannot", "unable", "without");
 *   h  hypothetical: conditional, hedged, modal or asked ("if", "would", "may", "might", "could", "whether",
 *      "should we", "pending", a sentence ending in "?");
 *   o  about someone else: "... on a different customer's account, not yours";
 *   r  retracted by a later "scratch that", "correction:", "please disregard";
 *   c  a different purpose, neither said nor denied: after "instead of", "rather than", "than", "the usual", in a
 *      clause about the "original" item, or in a customer fallback ("if you have any questions, let us know").
 * A value said in a and nowhere contradicted covers a claim; n, h, o and r contradict it; c is ignored.
 *
 * Scope is the clause (clauses.ts), with three exceptions: "without" reaches only forward; a conditional
 * ("if", "unless", "should the...", "assuming") reaches over its whole segment between ";" or ":" marks, because
 * the main clause depends on it; and "?" or a reference to another customer reaches over the sentence.
 */

const NEGATORS = new Set([
  'not', 'no', 'never', 'none', 'nothing', 'nobody', 'neither', 'nor', 'cannot', 'unable', 'skip', 'skipped', 'refuse', 'refused',
  'declined', 'impossible', 'denied',
]);
/** (Patterns asked of every token are made once: a literal in a function is a new object at each call.) */
const NEGATED_CONTRACTION = /n't$/;
const I_WOULD = /^i'd$/;
const WOULD_CONTRACTION = /^(we|you|i|it|they|that)'d$/;
const CLAUSE_MARK = /^[,;:.!?-]$/;
/** Negative words that do not deny: bounds ("no later than") and emphasis ("not only"). */
const NOT_DENIALS = byFirstWord([
  ['no', 'later', 'than'], ['no', 'more', 'than'], ['not', 'later', 'than'], ['not', 'more', 'than'], ['no', 'longer', 'than'],
  ['not', 'only'], ['no', 'matter'], ['no', 'charge'], ['no', 'cost'], ['no', 'extra'], ['no', 'additional'], ['not', 'just'], ['no', 'problem'], ['no', 'worries'], ['never', 'mind'],
]);
const MODALS = new Set([
  'would', 'might', 'could', 'possibly', 'perhaps', 'maybe', 'probably', 'hope', 'hoping', 'hoped', 'consider',
  'considering', 'considered', 'discuss', 'discussed', 'discussing', 'pending', 'decide', 'deciding', 'approval',
  'reviewing', 'depends', 'depending', 'thought', 'whether', 'try', 'trying', 'potentially', 'eligible',
  'tentatively', 'undecided', 'unsure', 'assess', 'assessing', 'evaluate', 'evaluating', 'optional', 'recommend',
  'recommended', 'suggest', 'suggested', 'seems', 'seem', 'apparently', 'hopefully', 'ideally',
  // "A $75.00 credit is likely to follow", "I believe these usually last around an hour".
  'likely', 'unlikely', 'believe', 'guess', 'reckon',
  // "I think the system sends one automatically", "it's possible your account has been locked" ("as soon as possible",
  // "if possible" say when or whether we can, below).
  'think', 'possible',
]);
/** Words before "possible" that make it a time or a courtesy, not a doubt: "as soon as possible", "where possible". */
const POSSIBLE_AS_TIME = new Set(['as', 'if', 'where', 'whenever', 'wherever', 'when']);
/** What ", never …" may set aside: a means or a ground ("never by email", "never on the strength of a ticket"). */
const SET_ASIDE_MEANS = new Set(['on', 'by', 'through', 'via', 'with', 'from', 'over', 'based', 'just', 'simply', 'for', 'in']);
/** What "we can" / "I can" may go on with and still report or say what is so: "I can confirm", "we can see". */
const CAN_REPORT = new Set(['confirm', 'see', 'tell', 'assure', 'say', 'let', 'help', 'only', 'also', 'now', 'already', 'understand']);
/** Referrals: "flagged your order to our dispatch team for a replacement" asks for the act, it does not do it. */
const REFERRALS = new Set(['flagged', 'referred', 'passed', 'escalated', 'forwarded', 'submitted', 'requested', 'asked']);
/** Currencies written as codes before a figure: "around USD 491.67". */
const CURRENCY_CODES = new Set(['usd', 'eur', 'gbp']);
/** Approximations of a figure: "roughly $1,192.11", "around $491.67". An exact amount is never approximate. */
const APPROXIMATIONS = new Set(['roughly', 'around', 'about', 'approximately', 'approx', 'circa', 'some', 'nearly', 'almost', '~']);
const MODAL_PHRASES = byFirstWord([
  ['looking', 'into'], ['under', 'review'], ['too', 'early'], ['not', 'sure'], ['in', 'principle'],
  ['procedure', 'is', 'to'], ['policy', 'is', 'to'], ['process', 'is', 'to'], ['practice', 'is', 'to'],
  ['standard', 'procedure'], ['at', 'some', 'point'], ['look', 'into'], ['look', 'at'], ['looking', 'at'],
  ['take', 'a', 'look'],
  // "We examined a replacement by overnight priority courier, but…": an option weighed (an indefinite one), not an act.
  ['examined', 'a'], ['examined', 'an'], ['explored', 'a'], ['explored', 'an'], ['weighed', 'a'], ['weighed', 'an'], ['weighed', 'up'],
  ['evaluated', 'a'], ['evaluated', 'an'], ['assessed', 'a'], ['assessed', 'an'], ['considered', 'a'], ['looked', 'into', 'a'],
  ['was', 'going', 'to'], ['were', 'going', 'to'], ['supposed', 'to'], ['meant', 'to'],
  ['intended', 'to'], ['was', 'about', 'to'],
  // "Any credit will be assessed afterwards", "a credit to be considered": a decision still to come ("we've assessed
  // your case and refunded…" decided).
  ['be', 'assessed'], ['be', 'evaluated'], ['be', 'decided'], ['be', 'determined'],
  // "the account team will first review your $1,223.18 refund", "refunds of this size need sign-off".
  // ("after the last failed attempt" names an attempt; "we'll attempt to refund" doubts the refund.)
  ['attempt', 'to'], ['attempting', 'to'], ['attempted', 'to'],
  ['will', 'review'], ['will', 'first', 'review'], ["they'll", 'review'], ["we'll", 'review'], ['need', 'sign-off'], ['needs', 'sign-off'], ['were', 'about', 'to'], ['aim', 'to'], ['aiming', 'to'], ['aims', 'to'],
  ['aim', 'for'], ['aiming', 'for'], ['appears', 'to', 'be'], ['appears', 'to', 'have'], ['appear', 'to', 'be'], ['should', 'be', 'able', 'to'], ['promise', 'anything'], ['no', 'guarantee'], ['not', 'guaranteed'],
]);
const DECISIONS = new Set([
  'decide', 'decides', 'confirm', 'confirms', 'review', 'reviews', 'reviewed', 'approve', 'approves', 'agree', 'agrees',
  'determine', 'determines', 'hear', 'hears', 'receive', 'receives', 'through', 'processed', 'approved',
  // Someone else's step the outcome waits on: "once Amex has notified us", "as soon as the claim is settled".
  'notified', 'notifies', 'settled', 'resolved', 'cleared',
]);
const CONDITIONALS = new Set(['if', 'unless', 'assuming', 'provided', 'suppose', 'supposing']);
/** In a "once"/"as soon as"/"after" clause, what makes the outcome wait: the customer acting, or a check. */
/** "is after", "was after": a time compared with another, not an act waited for. */
const COPULAS = new Set(['is', 'was', 'are', 'were', 'be', 'being', "that's", "it's", "which's"]);
// ("Once we have your confirmation, we'll ship…", "As soon as we have both back, we'll send…": what we wait to have.)
const PRECONDITIONS = new Set(['you', "you've", 'verified', 'verify', 'verifying', 'verification', 'confirmed', 'received', 'provided', 'payment', 'checked', 'approved', 'signed', 'confirmation', 'back', 'reply', 'response', 'answer']);
/** "once we have those", "as soon as I have them": what the customer was asked for. */
const HELD = new Set(['those', 'them', 'these', 'it', 'that', 'this', 'everything', 'which']);
/** The desk as a subject: after a fronted purpose it opens the main clause, comma or not. */
const OUR_SUBJECTS = new Set(['we', 'i', "we've", "i've", "we'll", "i'll", "we're", "i'm", "we'd", "i'd"]);
/** Subjects that open a main clause after a fronted purpose ("…, we first need", "…, I've flagged", "…, our team"). */
const MAIN_SUBJECTS = new Set([
  'we', 'i', "we've", "i've", "we'll", "i'll", "we're", "i'm", "we'd", "i'd", 'our', 'my', 'the', 'your', 'this', 'they', 'it', 'please',
  // "To make up for the wait, there's now a $60 credit on your account": a main clause of being, or addressed to you.
  'there', "there's", "it's", "that's", 'you', "you'll", "you've", "you're", 'a', 'an', 'both', 'all',
]);

/** Purpose openers, asked at every token: made once (a literal in a function is a new array at each call). */
const SO_WE_CAN = ['so', 'we', 'can'];
const SO_I_CAN = ['so', 'i', 'can'];
const IN_ORDER_TO = ['in', 'order', 'to'];
const SO_THAT = ['so', 'that'];
const SO_AS_TO = ['so', 'as', 'to'];
const AS_SOON_AS = ['as', 'soon', 'as'];
const IN_CASE = ['in', 'case'];

/**
 * A purpose where it opens the sentence or follows a greeting ("To process the refund, …", "Hi Yusuf, so that
 * the credit can…", "In order to dispatch…"), and where it ends: at the comma before the main clause's subject,
 * or the end of the segment. Null where none starts at i.
 */
function purposeAt(tokens: string[], i: number): number | null {
  // ("Hi Hannah, so we can refund the $5,350.00, please reply with…": a purpose whose main clause asks.)
  const soWeCan = (phraseAt(tokens, i, SO_WE_CAN) || phraseAt(tokens, i, SO_I_CAN)) && i > 0;
  const opener = soWeCan || phraseAt(tokens, i, IN_ORDER_TO) || phraseAt(tokens, i, SO_THAT) || phraseAt(tokens, i, SO_AS_TO) || (tokens[i] === 'to' && /^[a-z]+$/.test(tokens[i + 1] ?? '') && !['the', 'a', 'an', 'your', 'our', 'you', 'us', 'me', 'them', 'it'].includes(tokens[i + 1]));
  if (!opener) return null;
  // (Or opening a coordinated clause: "…we would need to book express, and to cover an $18.00 shipping credit we need a
  // manager's sign-off".)
  const first = i === 0 || (tokens[i - 1] === ',' && i <= 4 && ['hi', 'hello', 'dear', 'hey'].includes(tokens[0])) || (['and', 'but'].includes(tokens[i - 1]) && [',', ';'].includes(tokens[i - 2] ?? ''));
  if (!first) return null;
  const [, end] = hardSegment(tokens, i);
  // (The purpose's own subject comes first: "so that we can apply the credit…, please reply" waits from "so that".)
  const opened = tokens[i] === 'to' ? i + 1 : soWeCan ? i + 1 : i + 2;
  for (let k = i + 2; k < end; k++) {
    if (tokens[k] === ',' && MAIN_SUBJECTS.has(tokens[k + 1] ?? '')) return k;
    // "To restore access we'll verify your identity": the main clause may follow with no comma.
    if (OUR_SUBJECTS.has(tokens[k]) && k > opened) return k;
  }
  return end;
}
/**
 * A purpose after the main clause: "…in order to open a carrier trace", "with a view to getting you a result…", "so
 * as to…", "so that a $70.00 credit can be applied". It runs to the end of its segment, or to a comma that opens a
 * clause of our own. ("so that it arrives Friday" is a result, and stays: "so that" is a purpose with a modal.)
 */
function purposeAfterMainClause(tokens: string[], i: number, aheadOf: () => Ahead): number | null {
  const t = tokens[i];
  // "I've opened a billing case to refund the $800.00": what a case or a request is opened for is its aim.
  if (i > 0 && t === 'to' && CASE_NOUNS.has(tokens[i - 1]) && /^[a-z]+$/.test(tokens[i + 1] ?? '') && !NOT_VERBS_AFTER_TO.has(tokens[i + 1])) {
    return aheadOf().ourClause[i + 1];
  }
  if (i === 0 || (t !== 'in' && t !== 'with' && t !== 'so')) return null;
  // ("please send the card's number so we can process the $176.30 refund": the act waits on what is asked.)
  const soWeCan = phraseAt(tokens, i, ['so', 'we', 'can']) || phraseAt(tokens, i, ['so', 'i', 'can']) || phraseAt(tokens, i, ['so', 'we', 'could']);
  // ("in order for a replacement to be sent", "with the aim of it arriving around 21 January": aims too.)
  const opener =
    soWeCan ||
    phraseAt(tokens, i, ['in', 'order', 'to']) ||
    phraseAt(tokens, i, ['in', 'order', 'for']) ||
    phraseAt(tokens, i, ['with', 'a', 'view', 'to']) ||
    phraseAt(tokens, i, ['with', 'the', 'aim', 'of']) ||
    phraseAt(tokens, i, ['so', 'as', 'to']) ||
    phraseAt(tokens, i, ['so', 'that']);
  if (!opener) return null;
  const ahead = aheadOf();
  if (soWeCan) return ahead.ourClause[i + 3];
  const stop = ahead.ourClause[Math.min(i + 2, tokens.length)];
  if (t === 'so' && tokens[i + 1] === 'that' && ahead.modals[Math.min(i + 2, tokens.length)] - ahead.modals[stop] === 0) return null;
  return stop;
}

/**
 * What lies ahead of each token, worked out once per sentence from its end (so that a reading at many tokens costs
 * one pass): where the segment's next clause of our own opens ("…, we" / "and I"), where the next comma or main
 * clause is, and how many purpose modals remain.
 */
interface Ahead {
  /** The first k >= i in i's segment where ", we" or "and I" opens our clause, or the segment's end. */
  ourClause: Int32Array;
  /** The first k >= i in i's segment at a comma, or where a main clause's subject and modal begin, or the segment's end. */
  clauseBreak: Int32Array;
  /** Purpose modals from i to the sentence's end. */
  modals: Int32Array;
}

function aheadOf(tokens: string[]): Ahead {
  const n = tokens.length;
  const ourClause = new Int32Array(n + 1).fill(n);
  const clauseBreak = new Int32Array(n + 1).fill(n);
  const modals = new Int32Array(n + 1);
  for (let k = n - 1; k >= 0; k--) {
    const t = tokens[k];
    const segmentEnd = t === ';' || t === ':' || t === '.' || t === '!' || t === '?' || t === '-';
    ourClause[k] = segmentEnd || ((t === ',' || t === 'and') && OUR_ACT_SUBJECTS.has(tokens[k + 1] ?? '')) ? k : ourClause[k + 1];
    const mainClause = /'ll$/.test(t) || (MAIN_CLAUSE_SUBJECTS.has(t) && FUTURE_MODALS.has(tokens[k + 1] ?? ''));
    clauseBreak[k] = segmentEnd || t === ',' || mainClause ? k : clauseBreak[k + 1];
    modals[k] = modals[k + 1] + (PURPOSE_MODALS.has(t) ? 1 : 0);
  }
  return { ourClause, clauseBreak, modals };
}
/** "after the last failed try", "on the third try": "try" as a noun, no attempt doubted. */
function tryAsNoun(tokens: string[], i: number): boolean {
  return (tokens[i] === 'try' || tokens[i] === 'tries') && TRY_NOUN_BEFORE.has(tokens[i - 1] ?? '');
}
const TRY_NOUN_BEFORE = new Set(['the', 'a', 'one', 'last', 'failed', 'first', 'second', 'third', 'next', 'each', 'every', 'another', 'final', 'wrong', 'unsuccessful', 'latest', 'most', 'recent', 'that', 'this', 'your', 'their', 'its']);
/** "only after", "only once", "only when": what follows is the rule's condition, the rule itself is stated. */
const ONLY_RULE = new Set(['after', 'once', 'when', 'with', 'by']);
/** The heads of a limit told as a relative clause ("the maximum our team may refund", "what the desk can refund"). */
const LIMIT_HEADS = new Set(['maximum', 'most', 'limit', 'what', 'whatever', 'amount', 'cap', 'ceiling']);
/** Words of the relative clause's subject between the head and its modal ("our support team", "the tier-1 desk"). */
const LIMIT_SUBJECT_WORDS = new Set([
  'our', 'the', 'my', 'we', 'i', 'support', 'team', 'desk', 'agent', 'agents', 'staff', 'frontline', 'front-line', 'tier', 'tier-1',
  '1', 'first-line', 'billing', 'help', 'service', 'customer', 'that', 'which', 'directly', 'a', 'an', 'any', 'one', 'each', 'single',
]);
/** Where the head of a limit's relative clause stands before the modal at i (up to five words back), or -1. */
function limitHeadBefore(tokens: string[], i: number): number {
  for (let k = i - 1; k >= Math.max(0, i - 6); k--) {
    if (LIMIT_HEADS.has(tokens[k])) return k < i - 1 ? k : -1;
    if (!LIMIT_SUBJECT_WORDS.has(tokens[k])) return -1;
  }
  return -1;
}
/** Verbs that tell the customer to do something first ("call us", "reply with", "send us", "confirm your address"). */
const REQUEST_IMPERATIVES = new Set(['call', 'phone', 'ring', 'reply', 'respond', 'send', 'confirm', 'verify', 'provide', 'contact', 'email', 'forward', 'share', 'upload', 'tell', 'complete', 'settle', 'pay']);
/** What a case or request is opened for: "a billing case to refund", "a request to replace". */
const CASE_NOUNS = new Set(['case', 'ticket', 'request', 'claim', 'investigation', 'escalation', 'review', 'workflow']);
const NOT_VERBS_AFTER_TO = new Set(['the', 'a', 'an', 'your', 'our', 'you', 'us', 'me', 'them', 'it', 'this', 'that', 'my', 'their', 'his', 'her']);
const PURPOSE_MODALS = new Set(['can', 'could', 'may', 'might', 'would', 'able']);
/** Subjects of our own act: "before we ship", "before I apply", "before our team sends". */
const OUR_ACT_SUBJECTS = new Set(['we', 'i', "we've", "i've", "we'll", "i'll", "we're", "i'm", 'our']);

/**
 * Where a "before" clause at i ends: at its comma, or with no comma where the main clause's subject and modal begin
 * ("Before we restore access we'll verify your identity"), else at the end of its segment.
 */
function beforeClauseEnd(tokens: string[], i: number, ahead: Ahead): number {
  return ahead.clauseBreak[Math.min(i + 2, tokens.length)];
}
const COURTESY = new Set(['confirm', 'let', 'inform', 'update', 'say', 'reassure', 'tell', 'apologise', 'apologize', 'thank', 'assure']);
const QUESTION_OPENERS = new Set(['have', 'has', 'had', 'did', 'do', 'does', 'is', 'are', 'was', 'were', 'can', 'could', 'will', 'would', 'shall', 'should']);
const CUSTOMER_ACTS: ReadonlySet<string> = new Set(SUPPORT_CUSTOMER_ACTS);
const INVERTED = new Set(['should', 'shall', 'can', 'could', 'would', 'will', 'do', 'did', 'may']);
const SUBJECTS = new Set(['we', 'you', 'i', 'it', 'that', 'this', 'the', 'they', 'there', 'everything', 'anything']);
const IMPERATIVES = new Set([
  'let', 'please', 'just', 'reply', 'contact', 'get', 'call', 'email', 'write', 'feel', 'do', "don't", 'check', 'see',
  'keep', 'reach', 'drop', 'give', 'tell', 'ask', 'send', 'respond', 'ping', 'chase', 'ring', 'phone', 'shout', 'message',
]);
const CONTRAST_FORWARD = byFirstWord([
  ['instead', 'of'], ['rather', 'than'], ['than'], ['unlike'], ['compared', 'to'], ['compared', 'with'], ['as', 'opposed', 'to'],
  ['beyond'],
]);
const REFERENT_CONTRAST = new Set(['original', 'originally', 'previous', 'previously', 'old', 'earlier', 'initial']);
const USUAL_WAYS = new Set(['way', 'process', 'procedure', 'practice', 'route', 'method']);
/** "depending a bit on your bank", "depending slightly on…". */
const DEGREE = new Set(['a', 'slightly', 'somewhat', 'partly', 'mostly', 'also']);
const USUAL = new Set(['usual', 'standard', 'normal', 'regular', 'typical']);
/** Cues that withdraw what the reply said before them; kept narrow ("charged in error" withdraws nothing). */
const RETRACTIONS = byFirstWord([
  ['scratch', 'that'], ['correction', ':'], ['correction', ','], ['correction', '-'], ['email', 'was', 'sent', 'in', 'error'],
  ['message', 'was', 'sent', 'in', 'error'], ['reply', 'was', 'sent', 'in', 'error'], ['sent', 'to', 'you', 'in', 'error'],
  ['drafted', 'in', 'error'], ['please', 'disregard'], ['so', 'disregard'], ['disregard', 'that'], ['disregard', 'this'],
  ['disregard', 'my'], ['disregard', 'the', 'above'], ['disregard', 'the', 'previous'], ['please', 'ignore', 'my'],
  ['please', 'ignore', 'that'], ['please', 'ignore', 'the', 'previous'], ['please', 'ignore', 'the', 'above'],
  ['ignore', 'my', 'previous'], ['on', 'second', 'thought'], ['drafted', 'for', 'another'], ['meant', 'for', 'another'],
  ['not', 'meant', 'for', 'you'], ['retract'], ['none', 'of', 'this', 'applies'], ['none', 'of', 'that', 'applies'],
  ['none', 'of', 'the', 'above', 'applies'], ['none', 'of', 'the', 'above', 'is'], ['has', 'fallen', 'through'], ['have', 'fallen', 'through'],
  ['plan', 'fell', 'through'], ['been', 'called', 'off'], ['withdraw', 'that'], ['withdrawing', 'that'],
  ['withdraw', 'this'], ['withdrawing', 'this'], ['take', 'that', 'back'], ['taking', 'that', 'back'],
  ['ignore', 'everything'], ['disregard', 'everything'], ['ignore', 'all', 'of', 'the', 'above'], ['scratch', 'the'],
  ['forget', 'everything'], ['forget', 'what', 'i'], ['forget', 'the', 'above'], ['forget', 'my', 'previous'], ['ignore', 'the', 'last'],
  ['disregard', 'the', 'last'], ['previous', 'email', 'was', 'sent'], ['sent', 'to', 'you', 'by', 'mistake'],
  ['ignore', 'the', 'first', 'part'], ['disregard', 'the', 'first', 'part'], ['ignore', 'the', 'earlier', 'part'],
]);
/** Disclaimers that leave everything said before them undecided: "These figures may change and are not final." */
const DISCLAIMERS = byFirstWord([
  ['may', 'change'], ['might', 'change'], ['could', 'change'], ['subject', 'to', 'change'], ['not', 'final'], ['are', 'provisional'],
  ['is', 'provisional'], ['estimates', 'only'], ['not', 'binding'], ['not', 'confirmed', 'yet'], ['nothing', 'is', 'confirmed'],
  ['nothing', 'has', 'been', 'processed'], ['nothing', 'has', 'been', 'done'], ["can't", 'promise'], ['cannot', 'promise'],
  ['no', 'promises'],
]);

function phraseAt(tokens: string[], i: number, phrase: string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (tokens[i + k] !== phrase[k]) return false;
  return true;
}

/**
 * The first of the phrases (in their order) that starts at tokens[i], or null. Each word is looked up in many such
 * lists, so each list is indexed by its phrases' first words once, and only the phrases that can start at the
 * token are compared.
 */
function anyPhraseAt(tokens: string[], i: number, phrases: PhraseList): string[] | null {
  const candidates = phrases.get(tokens[i]);
  if (candidates) for (const p of candidates) if (phraseAt(tokens, i, p)) return p;
  return null;
}

/**
 * Whether one of the phrases starts at tokens[i]. A plain loop: a closure over the position, in a loop over the
 * tokens, made a new context object for every token read.
 */
function listedPhraseAt(tokens: string[], i: number, phrases: readonly (readonly string[])[]): boolean {
  for (const p of phrases) {
    let k = 0;
    while (k < p.length && tokens[i + k] === p[k]) k++;
    if (k === p.length) return true;
  }
  return false;
}

/** Phrases by their first word, each list in the phrases' order. */
type PhraseList = Map<string, string[][]>;

function byFirstWord(phrases: string[][]): PhraseList {
  const index: PhraseList = new Map();
  for (const p of phrases) {
    const list = index.get(p[0]);
    if (list) list.push(p);
    else index.set(p[0], [p]);
  }
  return index;
}

/**
 * "won't take longer than 5-7 business days", "will not cost more than $348": a negated comparative sets a
 * ceiling; it denies nothing. Returns the index of "than", or -1.
 */
function boundAfter(tokens: string[], i: number): number {
  for (let k = i + 1; k <= i + 4 && k < tokens.length - 1; k++) {
    if (['longer', 'more', 'later'].includes(tokens[k]) && tokens[k + 1] === 'than') return k + 1;
    if (/^[.;:,?!]$/.test(tokens[k])) break;
  }
  return -1;
}

/**
 * A word that leaves what follows undecided: "consider a refund", "might issue a refund", "whether to", "look
 * at refunding". Not "if": "if the refund has not arrived by then" doubts the arrival, not the refund.
 */
export function isHedge(token: string): boolean {
  return MODALS.has(token) || ['may', 'might', 'could', 'would', 'look', 'looking'].includes(token) || /^(we|you|i|it|they)'d$/.test(token);
}

export function isNegator(tokens: string[], i: number): boolean {
  const t = tokens[i];
  // "We have yet to refund", "we failed to lock": not done, as plainly as "not".
  if (t === 'yet' && tokens[i + 1] === 'to' && ['have', 'has', 'are', 'is', "we've", "i've"].includes(tokens[i - 1] ?? '')) return true;
  if ((t === 'failed' || t === 'fail' || t === 'fails') && tokens[i + 1] === 'to') return true;
  if (!(NEGATORS.has(t) || NEGATED_CONTRACTION.test(t))) return false;
  if (anyPhraseAt(tokens, i, NOT_DENIALS)) return false;
  if (boundAfter(tokens, i) >= 0) return false;
  // "can no longer be used", "no one else", "not yet" stay negations; "don't worry" and "don't hesitate" deny nothing.
  if ((t === "don't" || t === 'do') && ['worry', 'hesitate'].includes(tokens[i + 1] === 'not' ? tokens[i + 2] : tokens[i + 1])) return false;
  return true;
}

export interface Stance {
  moods: string[];
  /** Token indices of the negators, for "no refund will be issued"-style denials of a claim's event. */
  negators: number[];
}

/**
 * `valueStarts` are the first tokens of the value mentions in this sentence; a contrastive "not" (", not the
 * $50 credit") only sets aside the value it introduces.
 */
/** Negative pronouns that can be a clause's subject: "none got in", "nobody signed in". */
const NEGATIVE_SUBJECTS = new Set(['none', 'nobody', 'nothing', 'no-one']);
/** Subjects of a relative clause after its noun ("the session you don't recognise", "keys that they didn't create"). */
// ("a network it hasn't seen before": "it" too, for a thing that does the seeing.)
const RELATIVE_SUBJECTS = new Set(['you', 'they', 'we', 'i', 'he', 'she', 'it', 'that', 'which', 'who']);
const RELATIVE_AUX = new Set(['do', 'does', 'did', 'can', 'could', 'will', 'would', 'have', 'has', 'had', 'be', 'been']);
const PARTICLES = new Set(['out', 'in', 'up', 'off', 'down']);
const HEAD_DETERMINERS = new Set(['any', 'the', 'a', 'an', 'every', 'each', 'your', 'those', 'these', 'this', 'all', 'some', 'our', 'no']);
/** Pronouns standing for a noun a relative clause can hang on: "one you don't recognise", "any you didn't create". */
const HEAD_PRONOUNS = new Set(['one', 'ones', 'any', 'anything', 'something', 'anyone', 'someone', 'those']);
/** Possessives and determiners opening a noun subject of a relative clause: "a device your account hadn't used". */
const SUBJECT_DETERMINERS = new Set(['your', 'our', 'their', 'the', 'my', 'his', 'her']);

/**
 * Where the subject of a relative clause whose negation is at i begins, or -1: "(session) you don't", "(keys) you
 * did not", "(a device) your account hadn't".
 */
function relativeSubjectBefore(tokens: string[], i: number): number {
  const prev = tokens[i - 1] ?? '';
  if (RELATIVE_SUBJECTS.has(prev)) return i - 1;
  if (RELATIVE_AUX.has(prev) && RELATIVE_SUBJECTS.has(tokens[i - 2] ?? '')) return i - 2;
  // A noun subject: only straight after a noun of the head ("a device your account hadn't used before").
  if (/^[a-z]+$/.test(prev) && SUBJECT_DETERMINERS.has(tokens[i - 2] ?? '') && /^[a-z]+$/.test(tokens[i - 3] ?? '') && !CLAUSE_LINKS.has(tokens[i - 3])) return i - 2;
  return -1;
}

/** Adverbs between "not" and a participle: "not previously seen", "not yet used". */
const PARTICIPLE_ADVERBS = new Set(['previously', 'yet', 'already', 'ever', 'recently', 'normally', 'usually', 'before']);
const IRREGULAR_PARTICIPLES = new Set(['seen', 'known', 'made', 'done', 'sent', 'used', 'set', 'given', 'shown', 'signed', 'logged']);

/**
 * "a device not previously seen on your account", "any session not recognised": "not" straight after a noun with its
 * determiner, then a participle, is a reduced relative clause. Returns the participle's index, or -1.
 */
function reducedRelativeEnd(tokens: string[], i: number, clauseStart: number): number {
  if (tokens[i] !== 'not') return -1;
  const head = tokens[i - 1] ?? '';
  if (!/^[a-z]+$/.test(head) || CLAUSE_LINKS.has(head) || RELATIVE_AUX.has(head) || RELATIVE_SUBJECTS.has(head) || /ly$/.test(head)) return -1;
  if (!tokens.slice(Math.max(clauseStart, i - 4), i - 1).some((t) => HEAD_DETERMINERS.has(t))) return -1;
  let k = i + 1;
  while (k < i + 3 && PARTICIPLE_ADVERBS.has(tokens[k] ?? '')) k++;
  const word = tokens[k] ?? '';
  return /^[a-z]+ed$/.test(word) || IRREGULAR_PARTICIPLES.has(word) ? k : -1;
}

/** Words before such a subject that make it the clause's own subject instead ("and you don't", "if we can't"). */
const CLAUSE_LINKS = new Set([
  'and', 'but', 'or', 'so', 'if', 'because', 'since', 'as', 'when', 'while', 'unless', 'although', 'though', ',', ';', ':', 'then',
  'that', 'which', 'who', 'where', 'why', 'how', 'what', 'whether', 'once', 'until', 'before', 'after', 'please',
  'is', 'are', 'was', 'were', 'will', 'would', 'can', 'could', 'do', 'does', 'did', 'have', 'has', 'had',
]);

export function stanceOf(tokens: string[], valueStarts: Set<number>, ids: number[] = clauseIds(tokens)): Stance {
  const n = tokens.length;
  const neg = new Array<boolean>(n).fill(false);
  const hyp = new Array<boolean>(n).fill(false);
  const contrast = new Array<boolean>(n).fill(false);
  const other = new Array<boolean>(n).fill(false);
  const negators: number[] = [];
  // (Worked out on the first opener that needs it: most sentences have none.)
  let aheadMemo: Ahead | null = null;
  const ahead = (): Ahead => (aheadMemo ??= aheadOf(tokens));
  // Where the sentence first asks the customer ("please"), worked out once on the first reading that needs it.
  let firstPlease = -2;
  const askedBefore = (i: number): boolean => {
    if (firstPlease === -2) firstPlease = tokens.indexOf('please');
    return firstPlease >= 0 && firstPlease < i;
  };
  // Where the sentence first tells the customer to do something ("call us", "reply with", "send us"): a request verb
  // opening the sentence or a clause after a comma.
  let firstImperative = -2;
  const imperativeBefore = (i: number): boolean => {
    if (firstImperative === -2) {
      firstImperative = -1;
      for (let k = 0; k < n; k++) {
        if (REQUEST_IMPERATIVES.has(tokens[k]) && (k === 0 || tokens[k - 1] === ',' || tokens[k - 1] === ';') && ['us', 'me', 'with', 'back', 'our', 'the', 'your'].includes(tokens[k + 1] ?? '')) {
          firstImperative = k;
          break;
        }
      }
    }
    return firstImperative >= 0 && firstImperative < i;
  };
  const clauseRange = (i: number): [number, number] => {
    let a = i;
    while (a > 0 && ids[a - 1] === ids[i]) a--;
    let b = i;
    while (b < n && ids[b] === ids[i]) b++;
    return [a, b];
  };
  const mark = (arr: boolean[], a: number, b: number) => {
    for (let k = a; k < b; k++) arr[k] = true;
  };

  for (let i = 0; i < n; i++) {
    const t = tokens[i];
    // Inside a contrast ("longer than the 3 business days you may have seen") a modal or negation belongs to
    // the contrasted phrase, not to the clause.
    if (contrast[i] && (isNegator(tokens, i) || MODALS.has(t) || t === 'may')) continue;
    if (isNegator(tokens, i)) {
      const prev = tokens[i - 1];
      let k = i + 1;
      while (['the', 'a', 'an', 'our', 'your', 'any'].includes(tokens[k])) k++;
      if (t === 'not' && (prev === ',' || prev === '(' || prev === 'and' || prev === 'but' || prev === undefined) && valueStarts.has(k)) {
        // ", not the $50 credit": a contrast that sets that value aside and leaves the clause standing.
        mark(contrast, i, clauseRange(i)[1]);
        continue;
      }
      // ("…only after verifying your identity on a video call, never on the strength of a ticket alone": a means set
      // aside after a comma, the clause before it standing.)
      if (t === 'never' && prev === ',' && SET_ASIDE_MEANS.has(tokens[i + 1] ?? '')) {
        mark(contrast, i, clauseRange(i)[1]);
        continue;
      }
      // ("without" is no negator here: it reaches forward only, below.)
      negators.push(i);
      // "monthly plans are credited, not refunded to the card": a "not" after a comma sets aside what follows it,
      // and leaves what came before standing.
      if (t === 'not' && prev === ',') {
        mark(neg, i, clauseRange(i)[1]);
        continue;
      }
      const [a, b] = clauseRange(i);
      // ("Outcome: all blocked, none got in", "every attempt was stopped - nobody got in": a negative subject after a
      // comma or dash opens its own clause; what came before stands.)
      if (NEGATIVE_SUBJECTS.has(t) && i > a && [',', '-', ';'].includes(prev)) {
        mark(neg, i, b);
        continue;
      }
      // "Our fastest service, the overnight priority courier, could not deliver…", "(even overnight priority, booked
      // now, wouldn't land until Wednesday…)": the subject before an aside is what the negation denies.
      appositiveSubjectBack(i, a, neg);
      // "a device not previously seen on your account": a participle after a noun, negated, says what the noun is.
      const participle = reducedRelativeEnd(tokens, i, a);
      if (participle > 0) {
        mark(neg, i, Math.min(b, participle + 1));
        continue;
      }
      // "sign out any session you don't recognise", "the account that you can't reach": a relative clause after a
      // noun negates itself, not the clause it hangs on.
      // ("keys you did not create": the subject may stand before an auxiliary; "a device your account hadn't used":
      // the subject may be a noun with its determiner.)
      const subject = relativeSubjectBefore(tokens, i);
      // The head noun before it comes with a determiner ("any session", "the keys") or is a pronoun standing for one
      // ("if you see one you don't recognise", "sign out any you don't recognise"): "unfortunately we can't" is
      // the clause's own subject.
      const headed = HEAD_PRONOUNS.has(tokens[subject - 1] ?? '') || tokens.slice(Math.max(a, subject - 4), subject - 1).some((t) => HEAD_DETERMINERS.has(t));
      const relative = subject > a && headed && !CLAUSE_LINKS.has(tokens[subject - 1]) && !/ly$/.test(tokens[subject - 1]);
      // The relative clause ends with its verb (and a particle): "any session you don't recognise can be signed out".
      let end = i + 1;
      while (end < b && RELATIVE_AUX.has(tokens[end])) end++;
      // ("as SO-55696 was invoiced to the account we won't be replacing it by standard ground": a verb with an object
      // of its own leaves no gap for the noun before it; the clause is the sentence's own.)
      if (relative && !['it', 'them'].includes(tokens[end + 1] ?? '')) {
        if (PARTICLES.has(tokens[end + 1] ?? '')) end++;
        mark(neg, subject, Math.min(b, end + 1));
      } else {
        mark(neg, a, b);
      }
      continue;
    }
    if (t === 'without') {
      // "dispatched a replacement, without charge, by overnight courier", "without delay": a manner, no denial.
      if (withoutManner(tokens, i)) continue;
      negators.push(i);
      mark(neg, i, clauseRange(i)[1]);
      continue;
    }
    const forward = anyPhraseAt(tokens, i, CONTRAST_FORWARD);
    let ceiling = false;
    if (t === 'than') {
      for (let k = Math.max(0, i - 5); k < i; k++) if ((NEGATORS.has(tokens[k]) || /n't$/.test(tokens[k])) && boundAfter(tokens, k) === i) ceiling = true;
    }
    if (forward && !ceiling) {
      mark(contrast, i, clauseRange(i)[1]);
      i += forward.length - 1;
      continue;
    }
    // (After "within" the usual window is this case's window: "within the usual 5-7 business days".)
    // "a video call is the usual way identity gets verified": how it is done as a rule, not what is done here.
    if (USUAL.has(t) && USUAL_WAYS.has(tokens[i + 1] ?? '')) mark(contrast, clauseRange(i)[0], clauseRange(i)[1]);
    if (USUAL.has(t) && !['within', 'in'].includes(tokens[i - 2] ?? '')) {
      // "the usual $50 goodwill credit", "the standard 3-5 business days": a value named as the norm, not this case's.
      // (The value straight after it, or after a mark: "standard ground today" names a service and a day, no norm.)
      if (valueStarts.has(i + 1) || (valueStarts.has(i + 2) && !/^[a-z]/.test(tokens[i + 1] ?? ''))) mark(contrast, i, clauseRange(i)[1]);
    }
    // "refunded to the original card" names where the money goes, not an earlier item.
    const destination = ['the', 'your'].includes(tokens[i - 1]) && ['to', 'onto', 'via', 'through'].includes(tokens[i - 2] ?? '');
    // "the original went by standard ground": what follows the referent in its clause is said of it, not of the
    // replacement ("shipped by overnight courier to the same address as the original order" keeps the courier).
    // ("a device not previously seen on your account, at 01:02 UTC on 23 September": "not previously" says the device
    // is new, it names no earlier item.)
    const negatedAdverb = (t === 'previously' || t === 'originally') && i > 0 && isNegator(tokens, i - 1);
    // ("wrong passwords from Graz earlier today the account locked itself": "earlier" of a time says when, it names no
    // earlier item.)
    const earlierWhen = t === 'earlier' && ['today', 'this', 'tonight', 'on', 'in', 'at', ',', '.', ';', 'than'].includes(tokens[i + 1] ?? '.');
    if (REFERENT_CONTRAST.has(t) && !destination && !negatedAdverb && !earlierWhen) {
      mark(contrast, i, clauseRange(i)[1]);
    }
    // ("They expect to deliver it by Wednesday 13 January", "the carrier expects…": someone else's expectation, reported,
    // neither said nor denied by us.)
    if ((t === 'expect' || t === 'expects' || t === 'expecting') && THIRD_PARTIES.has(tokens[i - 1] ?? '')) {
      mark(contrast, i, clauseRange(i)[1]);
      continue;
    }
    // "You were told the kits would arrive on the 25th": what someone said before, reported, neither said nor denied.
    if (REPORTED.has(t) && ['was', 'were', 'been', 'had'].includes(tokens[i - 1] ?? '')) {
      mark(contrast, i, clauseRange(i)[1]);
      continue;
    }
    // "I'd like to confirm that we've refunded...": a courtesy, not a doubt.
    if ((I_WOULD.test(t) || t === 'would') && tokens[i + 1] === 'like' && tokens[i + 2] === 'to' && COURTESY.has(tokens[i + 3] ?? '')) {
      i += 3;
      continue;
    }
    // "pending on your card" is where the refund is; "pending review" waits on one.
    if (t === 'pending' && tokens[i + 1] === 'on') continue;
    // ("a pending authorisation hold", "the pending charge": after its article, it says what kind of thing this is.)
    // ("these pending holds", "your pending charges": after any determiner.)
    if (t === 'pending' && ['a', 'an', 'the', 'this', 'that', 'these', 'those', 'your', 'any', 'both', 'all', 'two', 'three'].includes(tokens[i - 1] ?? '') && /^[a-z]+$/.test(tokens[i + 1] ?? '')) continue;
    // "You might have heard that refunds take 3 days": what the customer may have been told elsewhere, reported
    // rather than said or doubted (like a contrast: neither covers nor contradicts).
    if (['may', 'might', 'could'].includes(t) && tokens[i + 1] === 'have' && reportedAfter(tokens, i + 2)) {
      mark(contrast, i, clauseRange(i)[1]);
      continue;
    }
    // "the maximum our support team may refund directly", "what the desk can refund": a limit named in a relative
    // clause, neither said nor doubted of this case (the act beside it stands).
    if ((t === 'may' || t === 'can' || t === 'could' || t === 'might') && limitHeadBefore(tokens, i) >= 0) {
      mark(contrast, limitHeadBefore(tokens, i), clauseRange(i)[1]);
      continue;
    }
    // "It may take 5-7 business days": an estimate of how long, not a doubt about whether.
    const estimate = t === 'may' && (tokens[i + 1] === 'take' || tokens[i + 1] === 'takes');
    // "May 24" and "Monday 24 May" name the month: a day number on either side.
    // ("$90 may also be possible": a figure after a currency sign is no day of the month.)
    const month = t === 'may' && (/^\d/.test(tokens[i + 1] ?? '') || (/^\d{1,2}(st|nd|rd|th)?$/.test(tokens[i - 1] ?? '') && !/^[$€£]$/.test(tokens[i - 2] ?? '')));
    // "It settles within 5-7 business days, depending on your bank": a trailing qualifier of how, not a doubt about
    // what came before it.
    // "delivered by Wednesday 26 May at the latest, possibly from Friday 21 May": a trailing hedge on an addition.
    if ((t === 'possibly' || t === 'perhaps' || t === 'maybe') && tokens[i - 1] === ',' && i > 2) {
      mark(hyp, i, clauseRange(i)[1]);
    } else if ((t === 'depending' || t === 'depends') && tokens[i - 1] === ',' && (tokens[i + 1] === 'on' || (DEGREE.has(tokens[i + 1] ?? '') && (tokens[i + 2] === 'on' || tokens[i + 3] === 'on')))) {
      mark(hyp, i, clauseRange(i)[1]);
    } else if ((MODALS.has(t) && !tryAsNoun(tokens, i) && !(t === 'possible' && POSSIBLE_AS_TIME.has(tokens[i - 1] ?? ''))) || (t === 'may' && !estimate && !month) || WOULD_CONTRACTION.test(t)) {
      const [a, b] = clauseRange(i);
      mark(hyp, a, b);
      // ("the quickest one, overnight priority, would only reach you on Tuesday": the subject before the aside too.)
      if (t === 'would' || t === 'could' || t === 'might') appositiveSubjectBack(i, a, hyp);
    }
    const modalPhrase = anyPhraseAt(tokens, i, MODAL_PHRASES);
    // ("they will review and approve it within 2 business days": a review that is the decision, told with its window.)
    if (modalPhrase && !(modalPhrase[modalPhrase.length - 1] === 'review' && tokens[i + modalPhrase.length] === 'and')) {
      const [a, b] = clauseRange(i);
      mark(hyp, a, b);
    }
    // "once we decide", "as soon as the carrier confirms the loss": the outcome waits on a decision.
    // ("locked until we confirm your identity" is how long, not a decision to wait for.)
    // "Once you send us the statement", "as soon as we have those", "once verified": it waits on the customer or a check.
    // ("we remove MFA only after verifying your identity on a video call": what "only after" names is the rule's
    // requirement, stated; nothing waits.)
    // ("which is after you needed the kits set up": after a copula, "after" compares two times; nothing waits.)
    if ((t === 'once' || t === 'when' || t === 'after' || phraseAt(tokens, i, AS_SOON_AS)) && tokens[i - 1] !== 'only' && !(t === 'after' && COPULAS.has(tokens[i - 1] ?? ''))) {
      const opened = t === 'as' ? i + 3 : i + 1;
      // (Up to twelve words, within the condition's own clause: "after a gateway timeout, so I've approved…" waits on nothing.)
      let conditionEnd = opened;
      // ("once the original packs have been returned to our warehouse and checked in": up to twelve.)
      while (conditionEnd < opened + 12 && conditionEnd < n && !/^[,;:.!?-]$/.test(tokens[conditionEnd])) conditionEnd++;
      const condition = tokens.slice(opened, conditionEnd);
      // ("The result follows within 5 business days, and we will write to you as soon as we have it": a trailing
      // condition holds over the clause it follows, not the ones before it.)
      // (The position is passed, not closed over: a closure over the loop's position made a context for every token.)
      const waiting = (i: number): [number, number] => {
        const [a, b] = hardSegment(tokens, i);
        return i > a && tokens[i - 1] !== ',' && ids[i - 1] !== ids[a] ? [hostStart(i - 1, a), b] : [a, b];
      };
      // ("Once the refund has settled, just reply if anything looks wrong": what the customer is to do then waits on the
      // event; the event itself is neither said nor doubted.)
      const askedThen = tokens[conditionEnd] === ',' && IMPERATIVES.has(tokens[conditionEnd + 1] ?? '');
      if (askedThen) {
        mark(contrast, i, conditionEnd);
      } else if (condition.some((w, k) => DECISIONS.has(w) || (['sign', 'signs', 'signed'].includes(w) && condition[k + 1] === 'off'))) {
        // ("As soon as they sign off, we'll refund…": a sign-off is a decision.)
        const [a, b] = waiting(i);
        mark(hyp, a, b);
      } else if (t !== 'when' && !HELD.has(tokens[i + 1] ?? '') && condition.some((w, k) => PRECONDITIONS.has(w) || (w === 'have' && HELD.has(condition[k + 1] ?? '')))) {
        // ("after that" points back: the sentence-initial case is below, a mid-sentence one orders two of our acts.)
        // What waits is the rest of the segment; the condition keeps its own stance ("access is restored once we
        // have verified your identity" still says the identity will be verified).
        const [a, b] = waiting(i);
        const [ca, cb] = conditionRange(i, a, b);
        // "Once you send us a screenshot showing both $400.00 charges": what the customer is to do, with its
        // figures, is neither said nor denied of this case.
        if (CUSTOMER_SUBJECTS.has(tokens[opened] ?? '')) mark(contrast, ca, cb);
        mark(hyp, a, ca);
        mark(hyp, cb, b);
      }
    }
    // "After that I'll book the replacement": after what the sentence before asked of the customer.
    if (i === 0 && t === 'after' && tokens[1] === 'that') mark(hyp, 0, n);
    // "call us from the number on file and then we'll send a reset link", "please send me…, and I'll then apply the
    // credit": what we do then waits on what the sentence asks of the customer.
    if (t === 'then' && i > 1 && (askedBefore(i) || imperativeBefore(i))) {
      if (OUR_SUBJECTS.has(tokens[i - 1]) && ['and', ','].includes(tokens[i - 2])) mark(hyp, i - 1, hardSegment(tokens, i)[1]);
      else if (OUR_SUBJECTS.has(tokens[i + 1] ?? '') && ['and', ','].includes(tokens[i - 1])) mark(hyp, i, hardSegment(tokens, i)[1]);
    }
    // "please settle the overdue invoice first; after that we will refund…": after what this sentence asks.
    if (i > 0 && t === 'after' && tokens[i + 1] === 'that' && /^[;,:-]$/.test(tokens[i - 1]) && askedBefore(i)) mark(hyp, i, hardSegment(tokens, i)[1]);
    // "before we can release the refund", "before I can refund it": the act waits on what the sentence requires.
    if (t === 'before' && SUBJECTS.has(tokens[i + 1] ?? '') && ['can', 'could'].includes(tokens[i + 2] ?? '')) mark(hyp, i, clauseRange(i)[1]);
    // "To process the $440 credit we first need…", "in order to dispatch…, our team first needs…", "so that the
    // $336.00 can be credited…, I've flagged…": the aim, not what was done. It reaches to the main clause.
    const purpose = purposeAt(tokens, i) ?? purposeAfterMainClause(tokens, i, ahead);
    if (purpose) mark(hyp, i, purpose);
    // "before we refund the duplicate $1,160.00, please reply with…", "before we ship your replacement…and add the
    // credit, …": our act in a "before" clause is what waits on the rest, not what was done.
    if (t === 'before' && OUR_ACT_SUBJECTS.has(tokens[i + 1] ?? '') && !['can', 'could'].includes(tokens[i + 2] ?? '')) mark(hyp, i, beforeClauseEnd(tokens, i, ahead()));
    const inverted = INVERTED.has(t) && SUBJECTS.has(tokens[i + 1]) && (i === 0 || ids[i - 1] !== ids[i] || tokens[i - 1] === ',');
    // ("As provided in your agreement, a shipping credit of $150.00 has been applied": what the agreement provides,
    // not a condition.)
    const providedAs = t === 'provided' && (tokens[i - 1] === 'as' || ['in', 'for', 'by', 'under'].includes(tokens[i + 1] ?? ''));
    if ((CONDITIONALS.has(t) && !providedAs) || phraseAt(tokens, i, IN_CASE) || (inverted && ['should', 'shall'].includes(t))) {
      conditional(i);
    }
  }

  /**
   * Version 4's readings over the whole sentence, in one pass (each token read once, plus what each reading needs
   * around it):
   * - "…and we'll get the refund moving - it then settles within 5-7 business days": a segment that goes on from
   *   the one before it ("then", "at the same time") stands as that one ends;
   * - "You can turn the extra $702.00 into account credit yourself": the customer's own act, with its figures;
   * - "a refund request for $4,640.00 has been raised": the figure of a request, not of the act;
   * - "Such refunds generally settle within 3-5 business days": what happens as a rule to a kind of thing;
   * - "before I can release the replacement (delivery Friday 5 Feb) and post the $175 credit, …": an aside in
   *   brackets, and what its clause goes on to say after it, stand as the clause around it does.
   */
  /**
   * "I can refund $1,250.00 straight away", "we can get replacement covers to you by express": what we can do is
   * offered, not done ("I can confirm", "we can see" report; "we can remove MFA only after verifying" states a rule).
   * "roughly $1,192.11", "around $491.67": an approximate figure is not the amount. "flagged your order to dispatch for
   * a replacement": what a referral is for is asked for, not done.
   */
  function markOffersAndApproximations(): void {
    for (let i = 0; i < n; i++) {
      const t = tokens[i];
      if (t === 'can' && (tokens[i - 1] === 'we' || tokens[i - 1] === 'i') && !CAN_REPORT.has(tokens[i + 1] ?? '')) {
        const [a, b] = clauseRange(i);
        // (The rule's "only after" may follow past a dash: "we can remove MFA for you - but only after verifying…".)
        let rule = false;
        for (let k = i + 1; k < Math.min(n - 1, i + 16) && !rule && !/^[.;!?]$/.test(tokens[k]); k++) rule = tokens[k] === 'only' && (tokens[k + 1] === 'after' || tokens[k + 1] === 'once');
        if (!rule) mark(hyp, a, b);
      } else if (APPROXIMATIONS.has(t) && (/^[$€£]$/.test(tokens[i + 1] ?? '') || CURRENCY_CODES.has(tokens[i + 1] ?? ''))) {
        mark(hyp, i, Math.min(n, i + 3));
      } else if (REFERRALS.has(t)) {
        for (let k = i + 1; k < Math.min(n - 1, i + 10) && !/^[.;:,!?-]$/.test(tokens[k]); k++) {
          if (tokens[k] === 'for' && (tokens[k + 1] === 'a' || tokens[k + 1] === 'an')) {
            mark(hyp, k, clauseRange(k)[1]);
            break;
          }
        }
      }
    }
  }

  function markReadings(): void {
    let prev = '';
    let open = -1;
    let segmentStart = 0;
    let yourselfClause = -1;
    let requestClause = -1;
    for (let k = 0; k < n; k++) {
      const t = tokens[k];
      if (prev === ';' || prev === ':' || prev === '-' || prev === '.' || prev === '!' || prev === '?') segmentStart = k;
      if ((prev === ';' || prev === ':' || prev === '-') && k >= 2 && continuesFrom(tokens, k)) {
        const host = neg[k - 2] ? neg : hyp[k - 2] ? hyp : null;
        if (host) {
          // (Forward to the segment's end only: segments do not overlap, so every token is read once more at most.)
          let end = k;
          while (end < n && !/^[;:.!?-]$/.test(tokens[end])) end++;
          mark(host, k, end);
        }
      }
      if ((t === 'yourself' || t === 'yourselves') && ids[k] !== yourselfClause) {
        yourselfClause = ids[k];
        const [ca, cb] = clauseRange(k);
        if (tokens.slice(ca, k).some((w) => CUSTOMER_SUBJECTS.has(w))) mark(contrast, ca, cb);
      } else if (REQUEST_NOUNS.has(t) && ids[k] !== requestClause && /^[a-z]+$/.test(prev) && !REQUEST_DETERMINERS.has(prev)) {
        requestClause = ids[k];
        mark(contrast, k - 1, clauseRange(k)[1]);
      } else if (HABITUAL.has(t)) {
        markGenericAt(tokens, k, contrast);
      } else if (t === '(') {
        open = k;
      } else if (t === ')' && open > 0) {
        // "Any shipping credit (your agreement mentions $250.00) will be assessed afterwards": the verb after the aside
        // is the host clause's own, and its doubt covers the subject before the aside and the aside.
        if (AFTER_ASIDE_VERBS.has(tokens[k + 1] ?? '') && (hyp[k + 1] || neg[k + 1])) mark(neg[k + 1] ? neg : hyp, hostStart(open - 1, segmentStart), k + 1);
        const host = neg[open - 1] ? neg : hyp[open - 1] ? hyp : null;
        if (host) {
          // ("if you spot one you don't recognise (that Edinburgh one, say) you can sign it out": a clause with its own
          // subject after the aside is not the host's.)
          let end = k + 1;
          if (!SUBJECTS.has(tokens[k + 1] ?? '')) while (end < n && !/^[,;:.!?(]$/.test(tokens[end])) end++;
          mark(host, open + 1, end);
        }
        open = -1;
      }
      prev = t;
    }
  }

  /**
   * Marks negated the comma-delimited chunks before a negated verb that opens right after a comma (at most two, of at
   * most eight words, with no verb of their own): the subject and its aside, cut off by the comma before the verb.
   */
  function appositiveSubjectBack(i: number, clauseStart: number, target: boolean[]): void {
    const verbAt = MODAL_BEFORE_NOT.has(tokens[i - 1] ?? '') && tokens[i] === 'not' ? i - 1 : i;
    if (tokens[verbAt - 1] !== ',' || clauseStart > verbAt) return;
    let end = verbAt - 1;
    for (let chunk = 0; chunk < 2; chunk++) {
      let start = end;
      while (start > 0 && end - start < 8 && !/^[,;:.!?(]$/.test(tokens[start - 1])) start--;
      const words = tokens.slice(start, end);
      if (words.length === 0 || words.some((w) => SUBJECT_VERBS.has(w) || /'(ve|ll|re|s|d|m)$/.test(w) || /n't$/.test(w))) return;
      mark(target, start, end);
      if (tokens[start - 1] !== ',') return;
      end = start - 1;
    }
  }

  /**
   * Where the clause holding token k begins, reading back over an aside in brackets it continues ("the replacement
   * (Monday 5 April) and the credit will be processed"), never before the segment's start a.
   */
  function hostStart(k: number, a: number): number {
    let start = clauseRange(k)[0];
    // (A closing bracket opens the clause after an aside: the clause it continues is the one before the aside.)
    while (start > a && tokens[start] === ')') {
      // (An aside is short: looking back at most 30 tokens keeps this linear in the sentence.)
      let open = start - 1;
      while (open > a && open > start - 32 && tokens[open] !== '(') open--;
      if (open <= a || tokens[open] !== '(') break;
      start = clauseRange(open - 1)[0];
    }
    return start;
  }

  /**
   * The words of a condition opened at i: to the first comma when it opens its segment ("Once verified, the refund
   * will…", "As soon as we have those details, the credit…"), else its clause.
   */
  function conditionRange(i: number, a: number, b: number): [number, number] {
    if (i === a || (i - a <= 4 && tokens.slice(a, i).every((w) => w === ',' || /^[a-z]+$/.test(w)) && tokens[i - 1] === ',')) {
      for (let k = i + 1; k < b; k++) {
        if (tokens[k] === ',') return [i, k];
        // ("Once verified I'll be able to start the $138.00 refund, which…": with no comma after it, the condition ends
        // where the main clause's subject and modal begin.)
        if (k >= i + 2 && (/'ll$/.test(tokens[k]) || (MAIN_CLAUSE_SUBJECTS.has(tokens[k]) && FUTURE_MODALS.has(tokens[k + 1] ?? '')))) return [i, k];
      }
    }
    const [ca, cb] = clauseRange(i);
    // "The trace result will follow within 5 business days after payment", "access comes back after a video call in
    // which we verify your identity": a condition inside its clause runs from its word to the next comma or the
    // segment's end, relative clauses and all.
    if (i > ca) {
      for (let k = i + 1; k < b; k++) if (tokens[k] === ',') return [i, k];
      return [i, b];
    }
    // "once I've verified the account the refund will be issued": with no comma, the condition ends where a subject
    // with a modal opens the main clause.
    for (let k = i + 2; k < cb; k++) {
      if (/'ll$/.test(tokens[k]) || (MAIN_CLAUSE_SUBJECTS.has(tokens[k]) && [1, 2, 3, 4, 5].some((d) => FUTURE_MODALS.has(tokens[k + d] ?? '')))) return [ca, k];
    }
    return [ca, cb];
  }

  function conditional(i: number): void {
    const [a, b] = hardSegment(tokens, i);
    // "If you have any questions, let us know": the customer's own condition, answered by a request.
    // "if not, let us know", "if so, reply": elliptical conditions on what the customer sees.
    // Any such condition answered by a request ("If it hasn't arrived within 5-7 business days, just reply").
    {
      let k = i + 1;
      while (k < b && tokens[k] !== ',') k++;
      if (k < b && IMPERATIVES.has(tokens[k + 1])) {
        mark(contrast, i, k);
        // "If it hasn't arrived, reply to let us know and we'll then refund the $138.00": what we do on the reply waits.
        // (Within the request's own words, forty at most: a segment of many conditions reads each stretch once.)
        for (let j = k + 1; j < Math.min(b - 1, k + 40); j++) {
          if (tokens[j] === 'and' && OUR_ACT_SUBJECTS.has(tokens[j + 1])) {
            mark(hyp, j, b);
            break;
          }
        }
        return;
      }
    }
    // "If you can't find those codes, we remove MFA only after verifying your identity on a video call": a rule told
    // for the customer's case, which it states; the condition is neither said nor denied.
    {
      let k = i + 1;
      while (k < b && tokens[k] !== ',') k++;
      let rule = false;
      // ("If the backup codes are lost, we can take MFA off for you, but we always verify it's really you on a video call
      // first": "always" states the rule too.)
      for (let j = k + 1; j < Math.min(b, k + 30) && !rule; j++) rule = (tokens[j] === 'only' && ONLY_RULE.has(tokens[j + 1] ?? '')) || (tokens[j] === 'always' && OUR_SUBJECTS.has(tokens[j - 1] ?? ''));
      if (i === a && k < b && rule) {
        mark(contrast, i, k);
        return;
      }
    }
    // "It expires in 30 minutes, and please check your spam folder if it doesn't show up": a trailing condition
    // holds over the clause it follows, not over the ones before that.
    if (i > a && tokens[i - 1] !== ',' && ids[i - 1] !== ids[a]) {
      mark(hyp, hostStart(i - 1, a), b);
      return;
    }
    // ("Your active sessions are all under Settings > Security, each with a Sign out button if you spot one that isn't
    // yours": in one clause, a trailing condition holds from the last comma before it.)
    if (i > a && tokens[i - 1] !== ',') {
      let comma = i - 2;
      while (comma > a && tokens[comma] !== ',') comma--;
      if (comma > a) {
        mark(hyp, comma + 1, b);
        return;
      }
    }
    mark(hyp, a, b);
  }

  // A question asks; it states nothing. So does one written without its mark ("Have we locked your account.").
  // ("Should you no longer hold those codes, please…": "should" first opens a condition, not a question, where the
  // sentence asks nothing.)
  const askedByInversion = QUESTION_OPENERS.has(tokens[0]) && SUBJECTS.has(tokens[1] ?? '') && !(tokens[0] === 'should' && !tokens.includes('?') && tokens.includes(','));
  if (tokens[n - 1] === '?' || tokens.slice(-3).includes('?') || askedByInversion) mark(hyp, askedFrom(tokens), n);
  // "Reply YES and we'll lock your account": an offer that waits on the customer.
  // ("Just reply 'yes' and I'll start it", "Simply confirm and we'll…": an adverb before the request changes nothing.)
  // ("Hi Tom, to refund SO-32840 please send me the card number, and I'll put through the $980.00; it should then
  // settle…": a request later in the sentence, after "please", holds what follows it.)
  for (let p = 0; p < n; p++) {
    if (p > 0 && tokens[p] !== 'please') continue;
    const offerAt = p > 0 ? p + 1 : ['just', 'simply', 'please'].includes(tokens[0]) ? 1 : 0;
    if (!CUSTOMER_ACTS.has(tokens[offerAt] ?? '')) continue;
    // ("Please confirm the card number and expiry date of the card you'd like it sent back to, and we'll…": the
    // request may be long; the offer is the first "and we'll" before the segment ends.)
    for (let k = offerAt + 1; k < Math.min(n, offerAt + 30) && !/^[.;:!?-]$/.test(tokens[k]); k++) {
      if (tokens[k] === 'and' && /^(we|we'll|i'll|i)$/.test(tokens[k + 1] ?? '')) {
        mark(hyp, p, n);
        break;
      }
    }
  }
  markOffersAndApproximations();
  markReadings();
  dashAsideTakesHostStance();
  undoneAfterBut();
  // ("I can't confirm that they were blocked", "we cannot say whether it arrived": what a denied verb of knowing or
  // saying introduces is not said either.)
  // (Each token marked once: a run of such verbs in one segment marks on from where the last one stopped.)
  let knownTo = 0;
  for (let k = 1; k < n; k++) {
    // (Within a segment already marked to its end, there is nothing left to mark, and its end is not sought again.)
    if (k >= knownTo && (tokens[k] === 'that' || tokens[k] === 'whether') && neg[k - 1] && KNOWING.has(tokens[k - 1])) {
      knownTo = hardSegment(tokens, k)[1];
      mark(neg, k, knownTo);
    }
  }
  if (aboutSomeoneElse(tokens)) mark(other, 0, n);

  /**
   * "I had booked an express replacement for delivery by Thursday 15 April with a $60.00 shipping credit, but I've now
   * cancelled that booking": what we had done, then undone after "but", is denied. (One pass: the first "but" after a
   * "had" of ours, and the undoing within five words of it.)
   */
  function undoneAfterBut(): void {
    const had = tokens.findIndex((t, k) => t === 'had' && OUR_SUBJECTS.has(tokens[k - 1] ?? ''));
    const ours = had >= 0 ? had - 1 : tokens.findIndex((t) => t === "i'd" || t === "we'd");
    if (ours < 0) return;
    for (let k = ours + 2; k < n; k++) {
      if (/^[.;!?]$/.test(tokens[k])) return;
      if (tokens[k] !== 'but') continue;
      for (let j = k + 1; j < Math.min(n, k + 6); j++) {
        // (Of what was just said: "cancelled that booking", "reversed it".)
        if (UNDOING_DONE.has(tokens[j]) && ['that', 'it', 'this', 'those', 'them', 'the'].includes(tokens[j + 1] ?? '')) {
          mark(neg, ours, k);
          return;
        }
      }
      return;
    }
  }

  /**
   * "Any replacement booked now - even by overnight priority courier - would only be delivered tomorrow": an aside
   * between dashes, followed by the host clause's own verb, holds with the host's subject what that verb's doubt or
   * denial holds. (Each dash is read once: an aside is at most twelve tokens, and the scan resumes after it.)
   */
  function dashAsideTakesHostStance(): void {
    for (let k = 1; k < n; k++) {
      if (tokens[k] !== '-') continue;
      let close = k + 1;
      while (close < n && close <= k + 12 && tokens[close] !== '-' && !/^[.;:!?]$/.test(tokens[close])) close++;
      if (tokens[close] !== '-' || close === k + 1) continue;
      const after = close + 1;
      if (AFTER_ASIDE_VERBS.has(tokens[after] ?? '') && (hyp[after] || neg[after]) && !hyp[k - 1] && !neg[k - 1]) {
        let start = k - 1;
        while (start > 0 && !/^[.;:!?,-]$/.test(tokens[start - 1])) start--;
        // (Only where the words before the aside have no verb of their own: a subject, as in the example.)
        if (!tokens.slice(start, k).some((w) => SUBJECT_VERBS.has(w) || /'(ve|ll|re|s|d|m)$/.test(w))) mark(neg[after] ? neg : hyp, start, after);
      }
      k = close;
    }
  }

  const moods = tokens.map((_, i) => (other[i] ? 'o' : neg[i] ? 'n' : hyp[i] ? 'h' : contrast[i] ? 'c' : 'a'));
  return { moods, negators };
}

const WH_WORDS = new Set(['what', 'when', 'which', 'who', 'where', 'how', 'would', 'could', 'can', 'does', 'do', 'is', 'are', 'shall', 'will']);

/**
 * Where a question ending the sentence starts: "We'll verify your identity on a video call - what time today suits you?"
 * asks only after the dash; a question of one piece asks from the start.
 */
function askedFrom(tokens: string[]): number {
  let last = tokens.length - 1;
  while (last > 0 && /^[?!.]$/.test(tokens[last])) last--;
  let start = last;
  // ("…someone signed in from a device we hadn't seen before, in Milan - not far from your usual Turin, so could it be a
  // new phone?": a question opened after a comma by "so", "and" or "but" and an auxiliary asks from there.)
  let afterComma = -1;
  while (start > 0 && !/^[;:-]$/.test(tokens[start - 1])) {
    if (afterComma < 0 && tokens[start - 1] === ',' && ['so', 'and', 'but', 'or'].includes(tokens[start]) && QUESTION_AUXILIARIES.has(tokens[start + 1] ?? '') && SUBJECT_PRONOUNS_ASKED.has(tokens[start + 2] ?? '')) afterComma = start;
    start--;
  }
  // (Not when the part before the comma asks already: "do you want it refunded to the card, or would you prefer…?")
  if (WH_WORDS.has(tokens[start]) || QUESTION_AUXILIARIES.has(tokens[start])) return start;
  return afterComma >= 0 ? afterComma : 0;
}
const QUESTION_AUXILIARIES = new Set(['could', 'would', 'can', 'is', 'was', 'are', 'were', 'did', 'do', 'does', 'have', 'has', 'will', 'might']);
const SUBJECT_PRONOUNS_ASKED = new Set(['it', 'you', 'this', 'that', 'they', 'someone', 'anyone', 'there']);

/** Verbs that open a predicate straight after an aside in brackets. */
/** Past forms that undo what was done: "but I've now cancelled that booking". */
const UNDOING_DONE = new Set(['cancelled', 'canceled', 'withdrawn', 'withdrew', 'reversed', 'undone', 'undid', 'rescinded', 'voided']);
/** Verbs of knowing and saying whose denial reaches what they introduce: "can't confirm that…". */
const KNOWING = new Set(['confirm', 'say', 'tell', 'know', 'guarantee', 'promise', 'verify', 'certain', 'sure']);
/** Subjects that are neither the desk nor the customer: "they expect", "the carrier expects". */
const THIRD_PARTIES = new Set(['they', "they're", 'carrier', 'courier', 'carriers', 'couriers']);
const AFTER_ASIDE_VERBS = new Set(['will', 'would', 'is', 'are', 'was', 'were', 'has', 'have', 'can', 'could', 'may', 'might', 'should', 'must']);

const MODAL_BEFORE_NOT = new Set(['could', 'would', 'can', 'will', 'did', 'does', 'do', 'should', 'may', 'might', 'is', 'are', 'was', 'were']);
/** Verbs that make a chunk a clause of its own, not a subject or its aside. */
const SUBJECT_VERBS = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'did', 'do', 'does', 'we', 'i', 'you']);

/** Nouns that make the act before them a request for it: "a refund request", "a credit application". */
const REQUEST_NOUNS = new Set(['request', 'requests', 'application', 'ticket']);
const REQUEST_DETERMINERS = new Set(['a', 'an', 'the', 'your', 'our', 'this', 'my', 'any']);

/** The customer as a subject: "once you send us…", "you can … yourself". */
const CUSTOMER_SUBJECTS = new Set(['you', "you've", "you'll", "you're"]);
/** Subjects and modals that open a main clause after a condition with no comma. */
const MAIN_CLAUSE_SUBJECTS = new Set(['the', 'your', 'we', 'i', 'it', 'this', 'that', 'our']);
const FUTURE_MODALS = new Set(['will', 'shall', 'should', 'can', 'would']);
/** Words by which a sentence or segment goes on from the one before it: "it then settles", "at the same time". */
const CONTINUATIONS: readonly (readonly string[])[] = [['then'], ['at', 'the', 'same', 'time'], ['at', 'that', 'point'], ['after', 'that'], ['from', 'then']];

const THEN_AS_TIME = new Set(['and', 'now', 'since', 'until', 'till', 'back', 'by', 'just', 'but', 'even']);

/** Whether the clause opening at k goes on from what came before: "then" after its subject, or a continuation phrase. */
export function continuesFrom(tokens: string[], k: number): boolean {
  for (let j = k; j < Math.min(tokens.length, k + 12); j++) {
    if (CLAUSE_MARK.test(tokens[j])) return false;
    // ("now and then", "back then", "since then" say when, not what follows from what.)
    if (tokens[j] === 'then' && THEN_AS_TIME.has(tokens[j - 1] ?? '')) continue;
    if (listedPhraseAt(tokens, j, CONTINUATIONS)) return true;
  }
  return false;
}

/**
 * Whether a sentence leaves what follows it waiting: it ends hypothetical, or it asks the customer to act ("Please
 * send me your password.", "Reply with the code."). A next sentence that goes on from it ("The result then
 * follows…") waits too.
 */
export function leavesWaiting(tokens: string[], moods: string): boolean {
  let last = tokens.length - 1;
  while (last > 0 && /^[.!?]$/.test(tokens[last])) last--;
  if (moods[last] === 'h' || moods[last] === 'n') return true;
  // The request may close the sentence after a dash or a comma: "…to confirm the account holder - please reply with…".
  let start = last;
  while (start > 0 && !/^[;:-]$/.test(tokens[start - 1])) start--;
  if (['just', 'simply', 'kindly'].includes(tokens[start])) start++;
  if (CUSTOMER_ACTS.has(tokens[start])) return true;
  for (let k = start; k < last; k++) if (tokens[k] === 'please' && CUSTOMER_ACTS.has(tokens[k + 1] ?? '')) return true;
  return false;
}

/** What "without" sets aside as a manner, not the act: "without charge", "without delay". */
const MANNER_NOUNS = new Set(['charge', 'cost', 'delay', 'fee', 'fees', 'question', 'questions', 'fail', 'exception', 'hesitation']);

function withoutManner(tokens: string[], i: number): boolean {
  let k = i + 1;
  while (['a', 'an', 'any', 'further', 'extra'].includes(tokens[k] ?? '')) k++;
  // ("released without any action on your part twelve hours after…", "without you doing anything": nothing asked of
  // the customer, a manner.)
  if ((tokens[k] === 'action' || tokens[k] === 'input' || tokens[k] === 'effort') && ['on', 'from', 'needed', 'required'].includes(tokens[k + 1] ?? '')) return true;
  if (tokens[k] === 'you' && /^[a-z]+ing$/.test(tokens[k + 1] ?? '')) return true;
  return MANNER_NOUNS.has(tokens[k] ?? '');
}

const AUXILIARIES_BEFORE_ADVERB = new Set(['can', 'could', 'may', 'might', 'will', 'would', 'do', 'does', 'are', 'is', 'have', 'has']);
const HABITUAL = new Set(['usually', 'generally', 'typically', 'normally', 'sometimes', 'often', 'ordinarily']);
const GENERIC_DETERMINERS = new Set(['such', 'these', 'those', 'most', 'many', 'all']);

/**
 * A clause with a habitual adverb whose subject is a kind of thing, not this case's: a bare plural ("traces usually
 * report back"), or one with "such", "these", "most" ("such refunds generally settle"). "Your refund usually
 * settles", "it usually takes" stay this case's.
 */
function markGenericAt(tokens: string[], i: number, contrast: boolean[]): void {
  // The subject: the words before the adverb back to the clause's start.
  // (A subject of at most three words and its auxiliaries: reading back six tokens at most keeps this linear.)
  let start = i;
  while (start > 0 && start > i - 6 && !/^[,;:.!?-]$/.test(tokens[start - 1]) && !['and', 'but', 'so', 'which'].includes(tokens[start - 1])) start--;
  if (start > 0 && start === i - 6 && !/^[,;:.!?-]$/.test(tokens[start - 1]) && !['and', 'but', 'so', 'which'].includes(tokens[start - 1])) return;
  // (Without the auxiliaries before the adverb: "these can sometimes take".)
  let subjectEnd = i;
  while (subjectEnd > start && AUXILIARIES_BEFORE_ADVERB.has(tokens[subjectEnd - 1])) subjectEnd--;
  const subject = tokens.slice(start, subjectEnd);
  const head = subject[subject.length - 1] ?? '';
  const generic =
    subject.length > 0 &&
    subject.length <= 3 &&
    /^[a-z]+s$/.test(head) &&
    !/(ss|us)$/.test(head) &&
    (subject.length === 1 || GENERIC_DETERMINERS.has(subject[0]));
  // ("these can sometimes take up to 7 business days": a demonstrative for a kind, under a habit.)
  const demonstrative = subject.length === 1 && (head === 'these' || head === 'those');
  if (!generic && !demonstrative) return;
  let end = i;
  while (end < tokens.length && !/^[;:.!?]$/.test(tokens[end]) && !(tokens[end] === ',' && end > i + 1) && !contrast[end]) end++;
  for (let k = start; k < end; k++) contrast[k] = true;
}

const REPORTING = new Set(['heard', 'read', 'seen', 'noticed', 'told', 'been']);
/** Verbs that report what was said earlier: "were told", "had promised", "were quoted". */
const REPORTED = new Set(['told', 'promised', 'quoted']);

/** "heard that", "read", "been told": a reporting verb after "might have". */
function reportedAfter(tokens: string[], i: number): boolean {
  return REPORTING.has(tokens[i]) && (tokens[i] !== 'been' || tokens[i + 1] === 'told');
}

/** Words before "isn't yours" that make it a condition or a description: "if one isn't yours", "any that aren't yours". */
const CONDITION_HEADS = new Set(['if', 'unless', 'that', 'which', 'who', 'any', 'one', 'ones', 'whichever', 'anything', 'those', 'where', 'when', 'whenever', 'should']);

/** "..., not yours", "not to your account", "a different customer's account", "another customer". */
function aboutSomeoneElse(tokens: string[]): boolean {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === 'not' || t === "isn't" || t === "wasn't" || t === "aren't" || t === "weren't") {
      // "if one isn't yours, sign it out", "any session that isn't you": a condition on the customer's own sessions,
      // not a case of someone else's.
      if (tokens.slice(Math.max(0, i - 4), i).some((w) => CONDITION_HEADS.has(w))) continue;
      let k = i + 1;
      if (['to', 'for', 'on', 'in'].includes(tokens[k])) {
        k++;
        if (tokens[k] === 'you' || tokens[k] === 'yours') return true;
      } else if ((tokens[k] === 'yours' && tokens[i - 2] !== 'ours') || (tokens[k] === 'you' && [',', '.', ';', undefined].includes(tokens[k + 1]))) return true;
    }
    // "..., but yours does not qualify": what was said is not this customer's case.
    if ((t === 'not' || NEGATED_CONTRACTION.test(t)) && /^qualif(y|ies)$/.test(tokens[i + 1] ?? '') && tokens.slice(Math.max(0, i - 4), i).some((w) => /^(you|yours|your)$/.test(w))) return true;
    // "..., but that doesn't apply to your order": what was said is not this customer's case.
    if ((t === 'not' || NEGATED_CONTRACTION.test(t)) && /^appl(y|ies)$/.test(tokens[i + 1] ?? '') && tokens[i + 2] === 'to' && /^(you|your)$/.test(tokens[i + 3] ?? '')) return true;
    if (['another', 'different', 'other'].includes(t) && /^(customer|customer's|client|client's)$/.test(tokens[i + 1] ?? '')) return true;
  }
  return false;
}

/** Whether the sentence disclaims what came before it ("These figures may change and are not final."). */
export function disclaims(tokens: string[]): boolean {
  for (let i = 0; i < tokens.length; i++) if (anyPhraseAt(tokens, i, DISCLAIMERS)) return true;
  return false;
}

/** Everything back as it was; a task adds its own words for it (lexicon `withdrawals`: "log in again as normal"). */
const UNDONE = byFirstWord([['back', 'the', 'way', 'it', 'was'], ['back', 'to', 'normal']]);

/** "Please disregard my previous email": a reply that withdraws the replies sent before it. */
export function withdrawsEarlierReplies(tokens: string[], lexicon: Lexicon = NO_LEXICON): boolean {
  for (let i = 0; i < tokens.length; i++) {
    // "...log in again as normal, everything is back the way it was": what was done is undone.
    if (anyPhraseAt(tokens, i, UNDONE) || listedPhraseAt(tokens, i, lexicon.withdrawals)) return true;
    if (!['disregard', 'ignore', 'forget', 'withdraw', 'retract'].includes(tokens[i])) continue;
    if (tokens.slice(i + 1, i + 5).some((t) => /^(previous|earlier|last|prior|above)$/.test(t))) return true;
  }
  return false;
}

/** Index of the first retraction cue, or -1: everything said before it in the reply is withdrawn. */
export function retractionAt(tokens: string[]): number {
  for (let i = 0; i < tokens.length; i++) if (anyPhraseAt(tokens, i, RETRACTIONS)) return i;
  return -1;
}
