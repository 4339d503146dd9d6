import { wordTable } from './word-table';
import { ACTION_NOUNS } from '../support-vocabulary';
/**
 * The forms of a verb that a declaration names by its base: "revoke" is also "revoked", "revoking", "revokes"
 * and "revocation"; "sign out" is "signed ... out" and "sign-out". A small rule set plus a table of the
 * irregular and nominal forms support replies use; no dictionary.
 */

export type VerbForm = 'base' | 'done' | 'ing' | 'noun';

const IRREGULAR = wordTable<string[]>({
  freeze: ['froze', 'frozen'], put: ['put'], shut: ['shut'], send: ['sent'], take: ['took', 'taken'],
  make: ['made'], set: ['set'], cut: ['cut'], hold: ['held'], begin: ['began', 'begun'],
  // Stressed on the last syllable, so the final consonant doubles ("submitted"), which the one-syllable rule misses.
  submit: ['submitted', 'submitting'], commit: ['committed', 'committing'], transfer: ['transferred', 'transferring'],
});
const NOUNS = wordTable<string[]>(Object.fromEntries(Object.entries(ACTION_NOUNS).map(([verb, nouns]) => [verb, [...nouns]])));

function doublesFinal(base: string): boolean {
  return /^[^aeiou]*[aeiou][bdgklmnprtv]$/.test(base) && !/[wxy]$/.test(base);
}

/** Every written form of a one-word verb, with what the form says about time. */
export function formsOf(base: string, taskNouns: readonly string[] = []): Map<string, VerbForm> {
  const forms = new Map<string, VerbForm>();
  forms.set(base, 'base');
  const stem = base.endsWith('e') ? base.slice(0, -1) : base;
  const double = doublesFinal(base) ? base + base.slice(-1) : base;
  if (/[^aeiou]y$/.test(base)) {
    forms.set(base.slice(0, -1) + 'ied', 'done');
    forms.set(base.slice(0, -1) + 'ies', 'done');
  } else {
    forms.set(base.endsWith('e') ? base + 'd' : double + 'ed', 'done');
    forms.set(/(s|sh|ch|x|z)$/.test(base) ? base + 'es' : base + 's', 'done');
  }
  forms.set((base.endsWith('e') && !base.endsWith('ee') ? stem : double) + 'ing', 'ing');
  // British spelling doubles a final "l" after one vowel: "cancelled", "cancelling".
  if (/[^aeiou][aeiou]l$/.test(base) && !doublesFinal(base)) {
    forms.set(base + 'led', 'done');
    forms.set(base + 'ling', 'ing');
  }
  for (const f of IRREGULAR[base] ?? []) forms.set(f, 'done');
  const nouns = NOUNS[base] ?? (base.endsWith('ate') ? [base.slice(0, -1) + 'ion'] : base.endsWith('ify') ? [base.slice(0, -1) + 'ication'] : []);
  for (const f of [...nouns, ...taskNouns]) if (!forms.has(f)) forms.set(f, 'noun');
  return forms;
}

/** Plural and hyphen variants of an object phrase's last word: "api key" matches "api keys" and "api-key". */
export function objectVariants(phrase: string[]): string[][] {
  const last = phrase[phrase.length - 1];
  const plural = /(s|sh|ch|x)$/.test(last) ? last + 'es' : /[^aeiou]y$/.test(last) ? last.slice(0, -1) + 'ies' : last + 's';
  const out = [phrase, [...phrase.slice(0, -1), plural]];
  // ("on any other service where you use it" for "other services": a plural's singular too.)
  const singular = /[^aeiou]ies$/.test(last) ? last.slice(0, -3) + 'y' : /(ss|us|is)$/.test(last) ? null : /(sh|ch|x|ss)es$/.test(last) ? last.slice(0, -2) : /s$/.test(last) && last.length > 3 ? last.slice(0, -1) : null;
  if (singular) out.push([...phrase.slice(0, -1), singular]);
  if (phrase.length === 2) out.push([phrase.join('-')], [`${phrase[0]}-${plural}`]);
  return out;
}
