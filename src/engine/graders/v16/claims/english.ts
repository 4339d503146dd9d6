import { COMMON_VERBS as SUPPORT_VERBS, FOREIGN_SUPPORT_WORDS } from '../support-vocabulary';

/**
 * Word classes for the sentence rule and the language check. Function words are what separates prose from a
 * keyword list: "we have refunded $348 to your card" is half function words, "$348 refund card" has none.
 */

export const ENGLISH_FUNCTION_WORDS = new Set([
  'a', 'an', 'the', 'to', 'of', 'in', 'on', 'for', 'with', 'by', 'at', 'from', 'as', 'and', 'or', 'but', 'so', 'if',
  'that', 'this', 'these', 'those', 'it', 'its', 'we', 'our', 'us', 'you', 'your', 'yours', 'i', 'my', 'me', 'they',
  'their', 'them', 'he', 'she', 'his', 'her', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had',
  'will', 'would', 'can', 'could', 'should', 'may', 'might', 'must', 'shall', 'do', 'does', 'did', 'not', 'no',
  'there', 'here', 'what', 'which', 'who', 'when', 'where', 'how', 'all', 'any', 'every', 'some', 'each', 'into',
  'about', 'after', 'before', 'until', 'than', 'then', 'also', 'just', 'please', 'yet', 'within', 'over', 'under',
  'between', 'once', 'because', 'since', 'now', 'too', 'very', 'again', 'only', 'still', 'already', 'via', 'per',
  'up', 'out', 'off', 'back', 'away', 'while', 'whether', 'both', 'either', 'neither', 'nor', 'none', 'nothing',
  'never', 'onto', 'upon', 'across', 'through', 'during', 'without', 'against', 'towards', 'toward',
]);

/** (Patterns asked of every token are made once: a literal in a function is a new object at each call.) */
const PRONOUN_CONTRACTION = /^(we|you|i|it|they|that|there|he|she|what|who|here|let)'(ve|re|ll|s|d|m)$/;
const NEGATED_CONTRACTION = /n't$/;

/** Contractions are a pronoun or auxiliary plus a particle: function words too. */
export function isEnglishFunctionWord(token: string): boolean {
  if (ENGLISH_FUNCTION_WORDS.has(token)) return true;
  return PRONOUN_CONTRACTION.test(token) || NEGATED_CONTRACTION.test(token);
}

/**
 * Function words of the other languages agents are likely to answer in (Spanish, French, German, Portuguese),
 * left out where they are also English words ("a", "no", "die", "as", "in", "an").
 */
const FOREIGN_FUNCTION_WORDS = new Set([
  // Spanish
  'el', 'la', 'los', 'las', 'del', 'que', 'y', 'en', 'por', 'para', 'con', 'una', 'un', 'su', 'tu', 'hemos', 'ha',
  'se', 'al', 'es', 'son', 'lo', 'le', 'antes', 'también', 'hoy', 'mañana', 'días',
  // French
  'les', 'des', 'du', 'et', 'pour', 'sur', 'avec', 'nous', 'vous', 'votre', 'vos', 'est', 'sont', 'avons', 'au', 'aux',
  'ce', 'qui', 'dans', 'par', 'sous', 'jours', 'lors', 'toutes', 'avant', 'il', 'sera',
  // German
  'der', 'das', 'und', 'ist', 'wir', 'haben', 'ihr', 'ihre', 'ihren', 'ihrem', 'ihrer', 'mit', 'von', 'für', 'auf',
  'den', 'dem', 'ein', 'eine', 'einen', 'einem', 'zu', 'im', 'wird', 'sie', 'nicht', 'bevor', 'alle', 'werden',
  'wurden', 'innerhalb', 'außerdem', 'heute', 'morgen', 'er', 'uhr',
  // Portuguese
  'o', 'os', 'um', 'uma', 'do', 'da', 'dos', 'das', 'em', 'na', 'com', 'e', 'seu', 'sua', 'foi', 'foram', 'ao', 'à',
  'vamos', 'nos', 'nas', 'nunca', 'todas', 'também', 'hoje', 'amanhã', 'ficam', 'será',
  ...FOREIGN_SUPPORT_WORDS,
]);

/** Words English shares with those lists; they count for English only. */
const SHARED = new Set(['do', 'die', 'o', 'e', 'will', 'on', 'so', 'is', 'or']);

export function isForeignFunctionWord(token: string): boolean {
  return FOREIGN_FUNCTION_WORDS.has(token) && !SHARED.has(token);
}

/** Letters with diacritics are rare in English support replies and common in the four languages above. */
export function hasForeignLetters(token: string): boolean {
  // (Most tokens are ASCII, which has no such letter: the Unicode classes below are read only past it.)
  let ascii = true;
  for (let k = 0; k < token.length && ascii; k++) if (token.charCodeAt(k) >= 128) ascii = false;
  if (ascii) return false;
  // Latin letters with the diacritics of the desk's neighbour languages, or any letter of another script.
  return /[áéíóúàèìòùâêîôûãõñçäöüßœ]/.test(token) || (/\p{L}/u.test(token) && /[^\p{Script=Latin}\P{L}]/u.test(token));
}

/** Auxiliaries and modals: a finite verb for the sentence rule. */
export const AUXILIARIES = new Set([
  'is', 'are', 'was', 'were', 'be', 'been', 'being', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'should',
  'may', 'might', 'must', 'shall', 'do', 'does', 'did', 'cannot', 'am',
]);

/** Frequent support-reply verbs no ending gives away (support-vocabulary.ts). */
const COMMON_VERBS: ReadonlySet<string> = new Set(SUPPORT_VERBS);

const CONTRACTION = /'(ve|re|ll|s|d|m)$/;
const PARTICIPLE = /^[a-z]{3,}(ed|ing)$/;

/** A token that is (or is likely to be) a verb form. */
export function isVerbish(token: string): boolean {
  if (AUXILIARIES.has(token) || COMMON_VERBS.has(token)) return true;
  if (CONTRACTION.test(token) || NEGATED_CONTRACTION.test(token)) return true;
  return PARTICIPLE.test(token);
}
