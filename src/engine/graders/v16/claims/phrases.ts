import { isPossessiveOf } from './text';

/**
 * Phrases looked for at every token of a reply: objects of actions ("api key", "account"), things a customer must
 * not be asked for ("password", "card number"). A phrase's last word may carry "'s" ("your account's locked").
 */

/** Whether the phrase starts at tokens[i], its last word possibly possessive. */
export function phraseWithPossessiveAt(tokens: string[], i: number, phrase: string[]): boolean {
  const last = phrase.length - 1;
  for (let k = 0; k <= last; k++) {
    const t = tokens[i + k];
    if (t !== phrase[k] && !(k === last && t !== undefined && isPossessiveOf(t, phrase[k]))) return false;
  }
  return true;
}

/**
 * Phrases by the token they can start at (their first word, and a one-word phrase's possessive too), each list in
 * the phrases' order, so the first phrase found at a token is the one a search through all of them would find.
 * Built once per list: comparing every phrase at every token cost the list's length for each token of a reply.
 */
export type PhraseIndex = Map<string, string[][]>;

const indexes = new WeakMap<string[][], PhraseIndex>();

export function indexPhrases(phrases: string[][]): PhraseIndex {
  let index = indexes.get(phrases);
  if (!index) {
    const built: PhraseIndex = new Map();
    const add = (key: string, phrase: string[]) => {
      const list = built.get(key);
      if (list) list.push(phrase);
      else built.set(key, [phrase]);
    };
    for (const phrase of phrases) {
      add(phrase[0], phrase);
      if (phrase.length === 1) add(`${phrase[0]}'s`, phrase);
    }
    indexes.set(phrases, built);
    index = built;
  }
  return index;
}

/**
 * Whether the phrase's words stand in order somewhere in the tokens (a name in full, "greta lindqvist"). A plain loop:
 * a closure over the position, asked at every token, made a new context object for each.
 */
export function containsPhrase(tokens: string[], phrase: string[]): boolean {
  for (let k = 0; k < tokens.length; k++) {
    let j = 0;
    while (j < phrase.length && tokens[k + j] === phrase[j]) j++;
    if (j === phrase.length) return true;
  }
  return false;
}

/** The first of the indexed phrases that starts at tokens[i], if any. */
export function firstPhraseAt(index: PhraseIndex, tokens: string[], i: number): string[] | undefined {
  const candidates = index.get(tokens[i]);
  if (!candidates) return undefined;
  for (const phrase of candidates) if (phraseWithPossessiveAt(tokens, i, phrase)) return phrase;
  return undefined;
}
