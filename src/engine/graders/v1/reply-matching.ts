import type { PhraseListDetail } from '../../task.schema';

/**
 * Normalizes text for phrase matching: case, Unicode forms, dash variants and spacing differ between writers
 * but not in meaning.
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const matchers = new Map<string, RegExp>();

/**
 * Whole-phrase match: a phrase must not be glued to a longer word or number, so "$249" does not match
 * "$2490" or "$249.50", and "5 days" does not match "15 days".
 */
export function containsPhrase(normalizedText: string, phrase: string): boolean {
  const key = normalizeText(phrase);
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(key)}(?![\\p{L}\\p{N}]|[.,]\\p{N})`, 'u');
    matchers.set(key, matcher);
  }
  return matcher.test(normalizedText);
}

export interface DetailVerdict {
  id: string;
  description: string;
  covered: boolean;
  contradicted: boolean;
}

/** Grader version 1: a detail counts when some reply states one of its phrases and no reply one of its contradictions. */
export function judgeReplyDetails(details: PhraseListDetail[], replies: string[]): DetailVerdict[] {
  const texts = replies.map(normalizeText);
  return details.map((detail) => {
    const stated = texts.some((t) => detail.accepted.some((p) => containsPhrase(t, p)));
    const contradicted = texts.some((t) => detail.contradictions.some((p) => containsPhrase(t, p)));
    return { id: detail.id, description: detail.description, covered: stated && !contradicted, contradicted };
  });
}
