import { unreadableAnalysis, type AnalysedSentence, type ReplyAnalysis, type SentenceStatus } from './analyse';
import { withinReadingBudget } from './budget';
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
  /** Over the reading budget, not read (absent otherwise, so the analyses of replies that were read are unchanged). */
  unreadable?: true;
}

export function storeAnalysis(analysis: ReplyAnalysis): StoredReplyAnalysis {
  const stored: StoredReplyAnalysis = {
    version: analysis.version,
    clock: analysis.clock,
    sentences: analysis.sentences.map(({ text, status, paragraph, moods, negators }) => ({ text, status, paragraph, moods, negators })),
    mentions: analysis.mentions,
    ...(analysis.unreadable ? { unreadable: true as const } : {}),
  };
  // Read back, it is the analysis it was made from: the step that stores it judges it at once without tokenising again.
  hydrated.set(stored, analysis);
  return stored;
}

/** Read back once per stored object (an episode's replies are shared between the states of its steps). */
const hydrated = new WeakMap<StoredReplyAnalysis, ReplyAnalysis>();

export function loadAnalysis(stored: StoredReplyAnalysis): ReplyAnalysis {
  let analysis = hydrated.get(stored);
  if (!analysis) {
    const tokenized = stored.sentences.map((s) => tokenize(s.text));
    // An analysis stored before the reading budget existed is held to it as a replay would be: one over it is not read.
    analysis =
      stored.unreadable || !withinReadingBudget(tokenized)
        ? unreadableAnalysis(stored.clock)
        : {
            version: stored.version,
            clock: stored.clock,
            sentences: stored.sentences.map((s, k): AnalysedSentence => ({ ...s, tokens: tokenized[k], clauses: clauseIds(tokenized[k]) })),
            mentions: stored.mentions,
          };
    hydrated.set(stored, analysis);
  }
  return analysis;
}
