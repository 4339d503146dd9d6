import { hasForeignLetters, isEnglishFunctionWord, isForeignFunctionWord, isVerbish } from './english';
import { isWord } from './text';

/**
 * What counts as a sentence addressed to the customer.
 *
 * A claim is only told to the customer in English prose: a sentence with a verb and enough English function
 * words (articles, pronouns, prepositions, auxiliaries) to carry meaning, so a bag of keywords - "$348 5-7
 * business days locked the account revoked all api keys video call" - tells nothing, however many right words it
 * holds. Precisely, a sentence is
 *   prose        when it has a verb, at least two function words (one in a sentence of up to eight words) making
 *                at least 15% of its words, and no run of more than eight words without a function word (keyword
 *                bags are long runs);
 *   telegraphic  when it falls short of that but is made of short items (at most 10 words between commas or
 *                semicolons, no six content words in a row), has a verb or participle
 *                ("Account locked, all sessions signed out.", "- Refund issued: $348.00"), and is not a
 *                comma list of four or more short items ("Keywords: refund, $348, 5-7 business days, ...");
 *                it counts only in a reply that has at least one prose sentence, or when it has two function
 *                words of its own, so real agents' bullet lists count but a reply made only of fragments does
 *                not; a label line ("Refund: $348.00") counts beside prose or under a greeting or closing;
 *   other_language when it has at least two function words of Spanish, French, German or Portuguese (or
 *                words with their diacritics) and more of them than English ones;
 *   not_a_sentence otherwise.
 * Label lines ("Refund: $348.00", "Time to settle on your card: 5-7 days") are judged as one sentence with their
 * label, which reads as its subject.
 */

/** Words that carry a fragment's predicate without a verb: "Result within 7 business days", "Valid 30 minutes". */
const VERBLESS_PREDICATES = new Set(['within', 'valid', 'until', 'by', 'for']);

export type SentenceShape = 'prose' | 'telegraphic' | 'not_a_sentence' | 'other_language';

/**
 * `implicitVerb`: the verb is understood from the frame - a label line ("Amount: USD 348.00" reads "the amount
 * is") or the answer right after a question ("When will you have it? Tomorrow, Friday 27 November.").
 */
export function shapeOf(tokens: string[], implicitVerb = false): SentenceShape {
  const words = tokens.filter(isWord);
  if (words.length === 0) return 'not_a_sentence';
  let english = 0;
  let foreign = 0;
  let run = 0;
  let longestRun = 0;
  let verb = implicitVerb;
  // A time of day and a year are one value's parts, not vocabulary: "the login was Jan 15, 2026, 11:02 AM UTC" is no
  // keyword list for them.
  let figures = 0;
  // (Indexed: an entries() pair is a new array for every token.)
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (!isWord(t)) {
      // ("alert = new-device sign-in from Milan": "=" between words reads "is".)
      if (t === '=' && isWord(tokens[k - 1] ?? '') && isWord(tokens[k + 1] ?? '')) verb = true;
      // Punctuation ends a run: "replacement kits ship today, overnight priority courier" is two short phrases.
      run = 0;
      continue;
    }
    const fn = isEnglishFunctionWord(t);
    if (fn) english++;
    if (isForeignFunctionWord(t) || hasForeignLetters(t)) foreign++;
    run = fn ? 0 : run + 1;
    longestRun = Math.max(longestRun, run);
    // ("Please sign in with one of your backup codes": the word after "please" is the imperative's verb.)
    // ("Please also change the password…": an adverb between them.)
    const afterPlease = tokens[k - 1] === 'please' || (tokens[k - 2] === 'please' && ['also', 'just', 'then', 'now', 'still', 'kindly'].includes(tokens[k - 1] ?? ''));
    if (isVerbish(t) || presentVerbAfterSubject(tokens, k) || (afterPlease && /^[a-z]{2,}$/.test(t) && !isEnglishFunctionWord(t))) verb = true;
    if (TIME_PARTS.test(t)) figures++;
  }
  if (foreign >= 2 && foreign > english) return 'other_language';
  // Short sentences need one function word: "Your original renewal remains valid."
  const enough = english >= 2 || (english === 1 && words.length <= 8);
  // Five or more items between semicolons is a list whatever their length: prose rarely chains that many.
  if (tokens.filter((t) => t === ';').length >= 4) return 'not_a_sentence';
  // "the refund of $348.00 and the 5-7 business days and the card and the plan": noun phrases strung on "and".
  if (tokens.filter((t, k) => t === 'and' && ['the', 'a', 'an'].includes(tokens[k + 1] ?? '')).length >= 3) return 'not_a_sentence';
  // ("Locked - failed sign-ins - 12 hours - 15:39 UTC - sign in again": fragments strung on dashes are a list, whatever
  // their verbs.)
  if (tokens.filter((t) => t === '-' || t === '/' || t === '|').length >= 3 && isKeywordList(tokens)) return 'not_a_sentence';
  // ("Keywords for your case: sign-in alert, new device, Leeds, October, Settings, Security, sessions, Sign out button":
  // six or more bare terms after a label are a list of words, whatever verb one of them looks like.)
  if (isLabelLine(tokens) && bareTermList(tokens.slice(tokens.indexOf(':') + 1))) return 'not_a_sentence';
  // ("Keywords for your case SO-25902: replacement, standard ground, 12 May, $15.00, …": a longer lead-in too.)
  const colon = tokens.indexOf(':');
  if (colon > 0 && colon <= 8 && bareTermList(tokens.slice(colon + 1))) return 'not_a_sentence';
  if (verb && enough && english / Math.max(1, words.length - figures) >= 0.15 && longestRun <= 8) return 'prose';
  if (verb && longestItem(tokens) <= 10 && longestRun <= 6 && !isKeywordList(tokens)) return 'telegraphic';
  // "Result within 7 business days.", "Valid 30 minutes.": a short fragment giving one figure with what it is of.
  // ("Good until 17:35 UTC (15 min).": a time of day says until when, it is not a second figure.)
  // ("Delivery by Tue 23 Feb before noon.": up to eight words.)
  if (words.length <= 8 && tokens.filter((t) => /^\d/.test(t) && !/^\d{1,2}:\d{2}$/.test(t)).length === 1 && tokens.some((t) => VERBLESS_PREDICATES.has(t)) && !isKeywordList(tokens)) return 'telegraphic';
  return 'not_a_sentence';
}

const TIME_PARTS = /^(\d{1,2}:\d{2}|\d{4}|\d{4}-\d{2}-\d{2}|am|pm|a\.m|p\.m|utc|gmt)$/;

/** (Asked of every token: made once, as a literal in a function is a new object at each call.) */
const PRESENT_IN_S = /^[a-z]{3,}s$/;
const NOT_PRESENT_IN_S = /(ss|us|is)$/;

/**
 * "The notification refers to…", "this shows that…": a present verb in -s after a subject of a determiner and a noun (or a
 * pronoun), followed by a function word.
 */
function presentVerbAfterSubject(tokens: string[], k: number): boolean {
  const t = tokens[k];
  if (!PRESENT_IN_S.test(t) || NOT_PRESENT_IN_S.test(t)) return false;
  const determiner = (w: string | undefined) => ['the', 'this', 'that', 'your', 'our', 'each', 'every'].includes(w ?? '');
  const noun = (w: string | undefined) => /^[a-z-]+$/.test(w ?? '') && !isEnglishFunctionWord(w ?? '');
  // ("The account team approves the other $300.00": a subject of two words too.)
  const subject =
    ['it', 'this', 'that', 'which', 'he', 'she', 'everything', 'nothing'].includes(tokens[k - 1] ?? '') ||
    (determiner(tokens[k - 2]) && /^[a-z-]+$/.test(tokens[k - 1] ?? '')) ||
    (determiner(tokens[k - 3]) && noun(tokens[k - 2]) && noun(tokens[k - 1]));
  return subject && isEnglishFunctionWord(tokens[k + 1] ?? '');
}

/** Whether each sentence is a label line, worked out once per sentence: claims and values ask it again and again. */
const labelLines = new WeakMap<string[], boolean>();

/** "Amount: USD 348.00", "Shipping credit: $150.00": one to four words, then a colon, then the value. */
export function isLabelLine(tokens: string[]): boolean {
  let known = labelLines.get(tokens);
  if (known === undefined) labelLines.set(tokens, (known = readLabelLine(tokens)));
  return known;
}

function readLabelLine(tokens: string[]): boolean {
  // A bullet, a tick or an emoji before the label ("- Refund:", "✅ Delivery date:") is decoration.
  let from = 0;
  while (from < tokens.length && !isWord(tokens[from]) && tokens[from] !== ':') from++;
  const colon = tokens.indexOf(':', from);
  return colon - from >= 1 && colon - from <= 4 && tokens.slice(from, colon).every(isWord) && tokens.length > colon + 1;
}

/** Words a bare term has none of: determiners, pronouns, auxiliaries ("Sign out button" is a term, "locked the account" is not). */
const NOT_IN_A_TERM = new Set(['the', 'a', 'an', 'your', 'our', 'my', 'its', 'their', 'this', 'that', 'these', 'those', 'we', 'i', 'you', 'it', 'they', 'is', 'are', 'was', 'were', 'has', 'have', 'had', 'will', 'be', 'been', 'all', 'every', 'each', 'any', 'no']);

/** Six or more comma-separated items of at most three words, none with a function word. */
function bareTermList(tokens: string[]): boolean {
  let items = 0;
  let words = 0;
  for (const t of [...tokens, ',']) {
    if (t === ',' || t === ';' || t === '.') {
      if (words > 0) items++;
      words = 0;
    } else if (isWord(t)) {
      if (NOT_IN_A_TERM.has(t) || ++words > 3) return false;
    }
  }
  return items >= 6;
}

/** Words in the longest comma- or semicolon-separated item. */
function longestItem(tokens: string[]): number {
  let longest = 0;
  let count = 0;
  // (A bracketed breakdown is an item of its own: "USD 906.82 (870.00 + 40.00 service credit - 3.18 …)".)
  for (const t of tokens) {
    // (And so are a label and the sum after it: "credit of $934.92 issued: 2 charges of $467.50 + $10.00 - $10.08 …".)
    if (t === ';' || t === ',' || t === '(' || t === ')' || t === ':' || t === '+' || t === '=') count = 0;
    else if (isWord(t)) longest = Math.max(longest, ++count);
  }
  return longest;
}

/**
 * Four or more comma-separated items, three in four of at most three words: a list of terms. A bracketed aside
 * belongs to its item ("before 12:00 (noon) UK time" is one item, not three).
 */
function isKeywordList(tokens: string[]): boolean {
  const items: number[] = [0];
  // ("Locked - failed sign-ins - 12 hours - 15:39 UTC - sign in again": three or more dashes or slashes part items
  // too; one or two are asides.)
  let marks = 0;
  for (const t of tokens) if (t === '-' || t === '/' || t === '|') marks++;
  const dashed = marks >= 3;
  // A label line's label is not one of its items.
  for (const t of isLabelLine(tokens) ? tokens.slice(tokens.indexOf(':') + 1) : tokens) {
    if (t === ',' || t === ';' || t === ':' || (dashed && (t === '-' || t === '/' || t === '|'))) items.push(0);
    else if (isWord(t)) items[items.length - 1]++;
  }
  const filled = items.filter((n) => n > 0);
  if (!(filled.length >= 4 && filled.filter((n) => n <= 3).length >= 0.75 * filled.length)) return false;
  // ("Collected today, delivered tomorrow, Wednesday 13 January, before 12:00": short clauses of a verb and when, not
  // a list of words.)
  let timed = 0;
  for (let k = 0; k + 1 < tokens.length; k++) {
    if ((k === 0 || tokens[k - 1] === ',') && /^[a-z]{3,}(ed|ing)$/.test(tokens[k]) && WHEN_WORDS.has(tokens[k + 1])) timed++;
  }
  return timed < 2;
}

/** Words that say when, after a verb: "collected today", "delivered on Friday". */
const WHEN_WORDS = new Set(['today', 'tomorrow', 'tonight', 'on', 'by', 'this', 'next', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);

/** Function words in a sentence, for the telegraphic rule's second way in. */
export function functionWordCount(tokens: string[]): number {
  return tokens.filter((t) => isEnglishFunctionWord(t)).length;
}
