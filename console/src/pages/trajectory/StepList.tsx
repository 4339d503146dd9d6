import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link } from 'wouter';
import type { Schemas } from '../../api';
import { describeAction, num } from '../../format';

/**
 * The episode's steps as links (each a shareable URL); ↑/↓ (or k/j), Home and End move between them when the list
 * has focus.
 */
export function StepList({ entries, selected, hrefOf, onSelect }: { entries: Schemas['ActionLogEntryDto'][]; selected: number; hrefOf(step: number): string; onSelect(step: number): void }) {
  const list = useRef<HTMLOListElement>(null);
  const last = entries.length;
  useEffect(() => {
    const current = list.current?.querySelector<HTMLAnchorElement>(`[data-step="${selected}"]`);
    if (current && list.current?.contains(document.activeElement)) current.focus();
  }, [selected]);
  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowDown: selected + 1, j: selected + 1, ArrowUp: selected - 1, k: selected - 1, Home: 0, End: last };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onSelect(Math.min(last, Math.max(0, next)));
  };
  return (
    <ol className="step-list" ref={list} onKeyDown={onKeyDown} aria-label="Steps (arrow keys move between them)" start={0}>
      <li>
        <Link href={hrefOf(0)} data-step={0} aria-current={selected === 0 ? 'step' : undefined}>
          <span className="step-no">0</span> reset
        </Link>
      </li>
      {entries.map((entry) => (
        <li key={entry.step}>
          <Link href={hrefOf(entry.step)} data-step={entry.step} aria-current={selected === entry.step ? 'step' : undefined} className={entry.error ? 'refused' : undefined}>
            <span className="step-no">{entry.step}</span>{' '}
            <span className="step-action">
              {describeAction(entry.action)}
              {entry.error && ' (refused)'}
            </span>
            <span className="step-score">
              {entry.reward === null ? 'reward —' : `${entry.reward >= 0 ? '+' : ''}${num(entry.reward)}`} → {num(entry.score_after)}
            </span>
          </Link>
        </li>
      ))}
    </ol>
  );
}
