import type { ReactNode } from 'react';

/**
 * Previous and next, with where the reader is. The buttons stay focusable at either end (aria-disabled, not
 * disabled), so a keyboard user paging to the last page keeps focus on the button; the position is announced.
 */
export function Pager({ label, position, canPrevious, canNext, onPrevious, onNext }: { label: string; position: ReactNode; canPrevious: boolean; canNext: boolean; onPrevious(): void; onNext(): void }) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" aria-disabled={!canPrevious} onClick={() => canPrevious && onPrevious()}>
        ← Previous
      </button>
      <span aria-live="polite">{position}</span>
      <button type="button" aria-disabled={!canNext} onClick={() => canNext && onNext()}>
        Next →
      </button>
    </nav>
  );
}

/** Cursor paging over an API listing: `cursors` is the stack of cursors that led to the page shown (empty: the first). */
export function CursorPager({ cursors, next, shown, onChange }: { cursors: string[]; next: string | null | undefined; shown: number; onChange(cursors: string[]): void }) {
  return (
    <Pager
      label="Pages"
      position={`Page ${cursors.length + 1} · ${shown} shown`}
      canPrevious={cursors.length > 0}
      canNext={!!next}
      onPrevious={() => onChange(cursors.slice(0, -1))}
      onNext={() => next && onChange([...cursors, next])}
    />
  );
}
