import type { AnalysedSentence, ReplyAnalysis, SentenceStatus } from './analyse';
import { clauseIds } from './clauses';
import type { ValueMention } from './mentions';
import { tokenize } from './text';

/**
 * A reply's analysis as the episode state stores it: what cannot be recomputed from the sentence text (its
 * status, the stance of each token, where the negators are, the values found) and not what can (the tokens and
 * clause numbers, a pure function of the text). About a third of the full form, and read back exactly.
 */
export interface StoredReplyAnalysis {
  version: 1;
  clock: string;
  sentences: { text: string; status: SentenceStatus; paragraph: number; moods: string; negators: number[] }[];
  mentions: ValueMention[];
}

export function storeAnalysis(analysis: ReplyAnalysis): StoredReplyAnalysis {
  return {
    version: analysis.version,
    clock: analysis.clock,
    sentences: analysis.sentences.map(({ text, status, paragraph, moods, negators }) => ({ text, status, paragraph, moods, negators })),
    mentions: analysis.mentions,
  };
}

/** Read back once per stored object (an episode's replies are shared between the states of its steps). */
const hydrated = new WeakMap<StoredReplyAnalysis, ReplyAnalysis>();

export function loadAnalysis(stored: StoredReplyAnalysis): ReplyAnalysis {
  let analysis = hydrated.get(stored);
  if (!analysis) {
    analysis = {
      version: stored.version,
      clock: stored.clock,
      sentences: stored.sentences.map((s): AnalysedSentence => {
        const tokens = tokenize(s.text);
        return { ...s, tokens, clauses: clauseIds(tokens) };
      }),
      mentions: stored.mentions,
    };
    hydrated.set(stored, analysis);
  }
  return analysis;
}
