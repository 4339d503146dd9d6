import type { Schemas } from '../../api';

export type MarkKind = 'covered' | 'missed' | 'penalty';

export interface Mark {
  kind: MarkKind;
  /** Why the sentence is marked, in words: the detail it covered, the reason it did not, or the penalty. */
  label: string;
}

export interface Segment {
  text: string;
  marks: Mark[];
}

export interface MarkedReply {
  segments: Segment[];
  /** Marks whose sentence is not found in the reply's text (shown beside it). */
  unplaced: Array<Mark & { sentence: string }>;
}

const REASON_WORDS: Record<string, string> = {
  not_stated: 'not stated',
  negated: 'said inside a negation',
  hypothetical: 'conditional, hedged or a question',
  conflicting_value: 'another value given for the same detail',
  not_a_sentence: 'a keyword list, not a sentence to the customer',
  other_language: 'not in the customer’s language',
  quoted_policy: 'knowledge-base text pasted',
  contradicted: 'contradicted',
};

/** The marks a reply sent at `step` earns: the details its sentences covered or missed, and the penalties they drew. */
export function marksFor(step: number, details: Schemas['ReplyDetailGradeDto'][], penalties: Schemas['PenaltyDto'][]): Array<Mark & { sentence: string }> {
  const marks: Array<Mark & { sentence: string }> = [];
  for (const d of details) {
    if (d.reply_step !== step || !d.sentence) continue;
    const what = d.description ?? d.id;
    marks.push(
      d.covered
        ? { kind: 'covered', label: `covers ${what}`, sentence: d.sentence }
        : { kind: 'missed', label: `${what}: ${REASON_WORDS[d.reason ?? ''] ?? d.reason ?? 'not covered'}`, sentence: d.sentence },
    );
  }
  for (const p of penalties) {
    if (p.step !== step || !p.sentence) continue;
    marks.push({ kind: 'penalty', label: `penalty −${p.penalty} (${p.kind.replaceAll('_', ' ')}): ${p.reason}`, sentence: p.sentence });
  }
  return marks;
}

/**
 * Splits a reply's text into segments, each sentence a mark names carrying its marks. A sentence is found where
 * it occurs in the text (the grader reports sentences as they were written, trimmed); overlapping marks of the same
 * sentence share its segment. Linear in the text for each mark.
 */
export function markReply(text: string, marks: Array<Mark & { sentence: string }>): MarkedReply {
  const spans: Array<{ start: number; end: number; marks: Mark[] }> = [];
  const unplaced: MarkedReply['unplaced'] = [];
  for (const mark of marks) {
    const sentence = mark.sentence.trim();
    const start = sentence === '' ? -1 : text.indexOf(sentence);
    if (start === -1) {
      unplaced.push(mark);
      continue;
    }
    const end = start + sentence.length;
    const same = spans.find((s) => s.start === start && s.end === end);
    if (same) same.marks.push({ kind: mark.kind, label: mark.label });
    else if (spans.some((s) => start < s.end && s.start < end)) unplaced.push(mark);
    else spans.push({ start, end, marks: [{ kind: mark.kind, label: mark.label }] });
  }
  spans.sort((a, b) => a.start - b.start);
  const segments: Segment[] = [];
  let at = 0;
  for (const span of spans) {
    if (span.start > at) segments.push({ text: text.slice(at, span.start), marks: [] });
    segments.push({ text: text.slice(span.start, span.end), marks: span.marks });
    at = span.end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), marks: [] });
  return { segments, unplaced };
}

/** The worst verdict among a sentence's marks decides its colour: a penalty, then a miss, then covered. */
export function worstKind(marks: Mark[]): MarkKind {
  return marks.some((m) => m.kind === 'penalty') ? 'penalty' : marks.some((m) => m.kind === 'missed') ? 'missed' : 'covered';
}
