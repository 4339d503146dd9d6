import type { Schemas } from '../../api';
import { markReply, marksFor, worstKind } from './reply-marks';

const SYMBOL = { covered: '✓', missed: '✗', penalty: '⚠' } as const;

/** A reply with each sentence the grade names marked by its verdict, the verdicts listed under it. */
export function ReplyView({ text, step, details, penalties }: { text: string; step: number; details: Schemas['ReplyDetailGradeDto'][]; penalties: Schemas['PenaltyDto'][] }) {
  const { segments, unplaced } = markReply(text, marksFor(step, details, penalties));
  const marked = segments.filter((s) => s.marks.length > 0);
  return (
    <div className="reply" data-reply-step={step}>
      <blockquote className="reply-text">
        {segments.map((segment, i) =>
          segment.marks.length === 0 ? (
            <span key={i}>{segment.text}</span>
          ) : (
            <mark key={i} className={`sentence sentence-${worstKind(segment.marks)}`} data-verdict={worstKind(segment.marks)} title={segment.marks.map((m) => m.label).join('; ')}>
              {segment.text}
              <sup aria-hidden="true">{segment.marks.map((m) => SYMBOL[m.kind]).join('')}</sup>
            </mark>
          ),
        )}
      </blockquote>
      {(marked.length > 0 || unplaced.length > 0) && (
        <ul className="verdicts">
          {marked.flatMap((segment, i) =>
            segment.marks.map((mark, j) => (
              <li key={`${i}-${j}`} className={`verdict verdict-${mark.kind}`}>
                <span className="symbol" aria-hidden="true">
                  {SYMBOL[mark.kind]}
                </span>{' '}
                <q>{segment.text.trim()}</q> — {mark.label}
              </li>
            )),
          )}
          {unplaced.map((mark, i) => (
            <li key={`u${i}`} className={`verdict verdict-${mark.kind}`}>
              <span className="symbol" aria-hidden="true">
                {SYMBOL[mark.kind]}
              </span>{' '}
              <q>{mark.sentence}</q> — {mark.label}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
