import { markReply, marksFor, readAsGraded, worstKind } from './reply-marks';

const marked = (text: string, marks: Parameters<typeof markReply>[1]) =>
  markReply(text, marks).segments.filter((s) => s.marks.length > 0).map((s) => [s.text, s.marks.map((m) => m.kind).join('+')]);

describe('readAsGraded', () => {
  it('reads a reply as the grader does, and says where each character was written', () => {
    const text = 'We’ve  **refunded** `INV-1` — 5–7 days.';
    const graded = readAsGraded(text);
    expect(graded.text).toBe("We've refunded INV-1 - 5-7 days.");
    // Every character maps back to a written span that reads as it (once cleaned).
    const r = graded.text.indexOf('refunded');
    expect(text.slice(graded.from[r], graded.to[r + 'refunded'.length - 1])).toBe('refunded');
  });
});

describe('markReply', () => {
  it('finds the sentences the grade quotes in the reply as written, typographic punctuation and emphasis included', () => {
    const text = 'Hi Dana — we’ve **refunded** the duplicate $348.00. Card refunds settle in 5–7 business days.';
    expect(
      marked(text, [
        { kind: 'covered', label: 'amount', sentence: "Hi Dana - we've refunded the duplicate $348.00." },
        { kind: 'missed', label: 'window', sentence: 'Card refunds settle in 5-7 business days.' },
      ]),
    ).toEqual([
      ['Hi Dana — we’ve **refunded** the duplicate $348.00.', 'covered'],
      ['Card refunds settle in 5–7 business days.', 'missed'],
    ]);
  });

  it('puts every mark of one sentence on its one segment, and a sentence written twice is marked once', () => {
    const text = 'It is refunded. Thanks. It is refunded.';
    const result = markReply(text, [
      { kind: 'covered', label: 'a', sentence: 'It is refunded.' },
      { kind: 'penalty', label: 'p', sentence: 'It is refunded.' },
    ]);
    expect(result.segments.map((s) => [s.text, s.marks.length])).toEqual([
      ['It is refunded.', 2],
      [' Thanks. It is refunded.', 0],
    ]);
    expect(worstKind(result.segments[0].marks)).toBe('penalty');
  });

  it('does not mark a sentence inside another one already marked; a sentence not in the text is listed apart', () => {
    const text = 'We refunded it and it is refunded. It is refunded.';
    const result = markReply(text, [
      { kind: 'covered', label: 'a', sentence: 'We refunded it and it is refunded.' },
      { kind: 'missed', label: 'b', sentence: 'it is refunded.' },
      { kind: 'missed', label: 'c', sentence: 'Never written.' },
    ]);
    expect(result.segments.filter((s) => s.marks.length).map((s) => s.text)).toEqual(['We refunded it and it is refunded.']);
    expect(result.unplaced.map((m) => m.sentence)).toEqual(['it is refunded.', 'Never written.']);
  });

  it('leaves a reply with no marks as one plain segment', () => {
    expect(markReply('Hello.', []).segments).toEqual([{ text: 'Hello.', marks: [] }]);
  });
});

describe('marksFor', () => {
  it('takes the details and penalties of the reply sent at that step only', () => {
    const marks = marksFor(
      5,
      [
        { id: 'amount', description: 'the refund: $348.00', covered: true, reason: null, sentence: 'We refunded $348.00.', reply_step: 5 },
        { id: 'window', description: 'the window', covered: false, reason: 'negated', sentence: 'It will not take 5-7 days.', reply_step: 5 },
        { id: 'other', description: 'x', covered: true, reason: null, sentence: 'Earlier.', reply_step: 3 },
        { id: 'none', description: 'y', covered: false, reason: 'not_stated', sentence: null, reply_step: null },
      ],
      [{ id: 'p1', kind: 'forbidden_statement', penalty: 0.25, reason: 'promised a refund', sentence: 'We refunded $348.00.', step: 5, ticket_id: 'T-1' }],
    );
    expect(marks.map((m) => [m.kind, m.sentence, m.label])).toEqual([
      ['covered', 'We refunded $348.00.', 'covers the refund: $348.00'],
      ['missed', 'It will not take 5-7 days.', 'the window: said inside a negation'],
      ['penalty', 'We refunded $348.00.', 'penalty −0.25 (forbidden statement): promised a refund'],
    ]);
  });
});
