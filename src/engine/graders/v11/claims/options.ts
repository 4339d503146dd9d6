import type { AnalysedSentence } from './analyse';
import type { OptionClaim } from './claim.schema';
import { tokenize } from './text';

/**
 * One value from a named set ("overnight" of overnight / standard ground / express). Every phrase of every
 * option is looked for; at each position the longest phrase wins, so "overnight priority courier" is one
 * mention, not three. The declared value's phrases are matches, the other options' phrases are rivals.
 */

export interface OptionHit {
  sentence: number;
  start: number;
  end: number;
  option: string;
}

const compiled = new Map<string, { option: string; words: string[] }[]>();

function phrasesOf(claim: OptionClaim): { option: string; words: string[] }[] {
  const key = JSON.stringify(claim.options);
  let list = compiled.get(key);
  if (!list) {
    list = Object.entries(claim.options)
      .flatMap(([option, phrases]) => phrases.map((p) => ({ option, words: tokenize(p) })))
      .sort((a, b) => b.words.length - a.words.length);
    if (compiled.size >= 256) compiled.clear();
    compiled.set(key, list);
  }
  return list;
}

function wordsAt(tokens: string[], i: number, words: string[]): boolean {
  for (let k = 0; k < words.length; k++) if (tokens[i + k] !== words[k]) return false;
  return true;
}

export function findOptions(claim: OptionClaim, sentences: AnalysedSentence[]): OptionHit[] {
  const phrases = phrasesOf(claim);
  const hits: OptionHit[] = [];
  sentences.forEach((s, si) => {
    const t = s.tokens;
    for (let i = 0; i < t.length; i++) {
      for (const p of phrases) {
        if (t[i] === p.words[0] && wordsAt(t, i, p.words)) {
          hits.push({ sentence: si, start: i, end: i + p.words.length, option: p.option });
          i += p.words.length - 1;
          break;
        }
      }
    }
  });
  return hits;
}
