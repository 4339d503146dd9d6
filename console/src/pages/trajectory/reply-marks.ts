import type { components } from '../../../../client/schema';

// The schema types straight from the generated client, so this file (and its spec) needs no browser.
type Schemas = components['schemas'];

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
 * The reply as the grader reads its sentences (the grader's clean-up: Unicode form NFKC, dashes and curly quotes
 * made plain, Markdown emphasis and code marks dropped, runs of spaces made one), with, for each character, the
 * span of the written text it came from; so a sentence the grade quotes is found in the text as written. What the
 * clean-up does beyond this (Markdown tables and headings rewritten) is left to `unplaced`.
 */
export function readAsGraded(text: string): { text: string; from: number[]; to: number[] } {
  let out = '';
  const from: number[] = [];
  const to: number[] = [];
  let i = 0;
  while (i < text.length) {
    if (text.startsWith('**', i) || text.startsWith('__', i)) {
      i += 2;
      continue;
    }
    const point = String.fromCodePoint(text.codePointAt(i)!);
    const next = i + point.length;
    if (point !== '`') {
      for (const ch of point.normalize('NFKC')) {
        const plain = /[\u2010-\u2015\u2212]/.test(ch) ? '-' : /[\u2018\u2019\u02bc]/.test(ch) ? "'" : /[\u201c\u201d]/.test(ch) ? '"' : /[ \t\u00a0]/.test(ch) ? ' ' : ch;
        if (plain === ' ' && out.endsWith(' ')) {
          to[to.length - 1] = next;
          continue;
        }
        out += plain;
        from.push(i);
        to.push(next);
      }
    }
    i = next;
  }
  return { text: out, from, to };
}

/**
 * Splits a reply's written text into segments, each sentence a mark names carrying its marks. A sentence is looked
 * for in the reply as the grader read it (readAsGraded), at its first place that no other sentence's mark holds
 * (a sentence written twice is marked where it first stands); the marks of one sentence share its segment.
 * Each search is linear in the text.
 */
export function markReply(text: string, marks: Array<Mark & { sentence: string }>): MarkedReply {
  const graded = readAsGraded(text);
  const spans: Array<{ start: number; end: number; sentence: string; marks: Mark[] }> = [];
  const unplaced: MarkedReply['unplaced'] = [];
  for (const mark of marks) {
    const sentence = readAsGraded(mark.sentence).text.trim();
    const same = spans.find((s) => s.sentence === sentence);
    if (same) {
      same.marks.push({ kind: mark.kind, label: mark.label });
      continue;
    }
    let at = sentence === '' ? -1 : graded.text.indexOf(sentence);
    while (at !== -1 && spans.some((s) => at < s.end && s.start < at + sentence.length)) at = graded.text.indexOf(sentence, at + 1);
    if (at === -1) unplaced.push(mark);
    else spans.push({ start: at, end: at + sentence.length, sentence, marks: [{ kind: mark.kind, label: mark.label }] });
  }
  spans.sort((a, b) => a.start - b.start);
  const segments: Segment[] = [];
  let written = 0;
  for (const span of spans) {
    const start = graded.from[span.start];
    const end = graded.to[span.end - 1];
    if (start > written) segments.push({ text: text.slice(written, start), marks: [] });
    segments.push({ text: text.slice(start, end), marks: span.marks });
    written = end;
  }
  if (written < text.length) segments.push({ text: text.slice(written), marks: [] });
  return { segments, unplaced };
}

/** The worst verdict among a sentence's marks decides its colour: a penalty, then a miss, then covered. */
export function worstKind(marks: Mark[]): MarkKind {
  return marks.some((m) => m.kind === 'penalty') ? 'penalty' : marks.some((m) => m.kind === 'missed') ? 'missed' : 'covered';
}
