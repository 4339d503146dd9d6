/**
 * Cursor paging: the API gives the next page's cursor; the pages already passed are kept so "Previous" works.
 * `cursors` is the stack of cursors that led to the current page (empty: the first page).
 */
export function Pager({ cursors, next, onChange, shown }: { cursors: string[]; next: string | null | undefined; onChange(cursors: string[]): void; shown: number }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={cursors.length === 0} onClick={() => onChange(cursors.slice(0, -1))}>
        ← Previous
      </button>
      <span>
        Page {cursors.length + 1} · {shown} shown
      </span>
      <button type="button" disabled={!next} onClick={() => next && onChange([...cursors, next])}>
        Next →
      </button>
    </nav>
  );
}
