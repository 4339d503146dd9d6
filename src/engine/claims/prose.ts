import { hasForeignLetters, isEnglishFunctionWord, isForeignFunctionWord, isVerbish } from './english';
import { isWord } from './text';

/**
 * What counts as a sentence addressed to the customer.
 *
 * A claim is only told to the customer in English prose: a sentence with a verb and enough English function
 * words (articles, pronouns, prepositions, auxiliaries) to carry meaning, so a bag of keywords - "$348 5-7
 * business days locked the account revoked all api keys video call" - tells nothing, however many right words it
 * holds. Precisely, a sentence is
 *   prose        when it has a verb, at least two function words making at least 15% of its words, and no run of
 *                more than eight words without a function word (keyword bags are long runs);
 *   telegraphic  when it falls short of that but is short (at most 14 words between semicolons), has a verb or participle
 *                ("Account locked, all sessions signed out.", "- Refund issued: $348.00"), and is not a
 *                comma list of four or more short items ("Keywords: refund, $348, 5-7 business days, ...");
 *                it counts only in a reply that has at least one prose sentence, or when it has two function
 *                words of its own, so real agents' bullet lists and label lines count but a reply made only of
 *                fragments does not;
 *   other_language when it has at least two function words of Spanish, French, German or Portuguese (or
 *                words with their diacritics) and more of them than English ones;
 *   not_a_sentence otherwise.
 * Label lines ("Refund: $348.00", "Time to settle on your card: 5-7 days") are judged as one sentence with their
 * label, which reads as its subject.
 */

export type SentenceShape = 'prose' | 'telegraphic' | 'not_a_sentence' | 'other_language';

export function shapeOf(tokens: string[]): SentenceShape {
  const words = tokens.filter(isWord);
  if (words.length === 0) return 'not_a_sentence';
  let english = 0;
  let foreign = 0;
  let run = 0;
  let longestRun = 0;
  let verb = false;
  for (const w of words) {
    const fn = isEnglishFunctionWord(w);
    if (fn) english++;
    if (isForeignFunctionWord(w) || hasForeignLetters(w)) foreign++;
    run = fn ? 0 : run + 1;
    longestRun = Math.max(longestRun, run);
    if (isVerbish(w)) verb = true;
  }
  if (foreign >= 2 && foreign > english) return 'other_language';
  if (verb && english >= 2 && english / words.length >= 0.15 && longestRun <= 8) return 'prose';
  if (verb && longestSegment(tokens) <= 14 && longestRun <= 8 && !isKeywordList(tokens)) return 'telegraphic';
  return 'not_a_sentence';
}

/** Words in the longest part between semicolons: "Replacement ships today; $150 credit applied." is two. */
function longestSegment(tokens: string[]): number {
  let longest = 0;
  let count = 0;
  for (const t of tokens) {
    if (t === ';') count = 0;
    else if (isWord(t)) longest = Math.max(longest, ++count);
  }
  return longest;
}

/** Four or more comma-separated items of at most three words: a list of terms, not a statement. */
function isKeywordList(tokens: string[]): boolean {
  const items: number[] = [0];
  for (const t of tokens) {
    if (t === ',' || t === ';') items.push(0);
    else if (isWord(t)) items[items.length - 1]++;
  }
  const filled = items.filter((n) => n > 0);
  return filled.length >= 4 && filled.filter((n) => n <= 3).length >= 0.75 * filled.length;
}

/** Function words in a sentence, for the telegraphic rule's second way in. */
export function functionWordCount(tokens: string[]): number {
  return tokens.filter((t) => isEnglishFunctionWord(t)).length;
}
