import type { KeyboardEvent } from 'react';
import { Link } from 'wouter';
import type { Schemas } from '../../api';
import { ErrorState, Loading } from '../../components/states';
import { describeAction, num, shortId } from '../../format';
import { EpisodeHeader, useEpisode } from './EpisodeHeader';
import { StepDetail } from './StepDetail';
import { ColumnHeads } from '../../components/ColumnHeads';

type Entry = Schemas['ActionLogEntryDto'];

/**
 * Two episodes (two trials of one family and seed) aligned by step: a row per step with each one's action, reward
 * and score after it, rows where they did different things marked; then the chosen step of both, side by side.
 */
export function SideBySide({ a, aEntries, b, wanted, hrefOf, onSelect }: { a: Schemas['EpisodeDetailDto']; aEntries: Entry[]; b: string; wanted: number; hrefOf(step: number): string; onSelect(step: number): void }) {
  const other = useEpisode(b);
  if (other.detail.isPending || other.actions.isPending) return <Loading label="the second episode" minHeight={800} />;
  if (other.detail.isError) return <ErrorState error={other.detail.error} retry={() => other.detail.refetch()} />;
  if (other.actions.isError) return <ErrorState error={other.actions.error} retry={() => other.actions.refetch()} />;
  const bDetail = other.detail.data;
  const bEntries = other.actions.data.actions;
  const rows = Math.max(aEntries.length, bEntries.length);
  const step = Math.min(wanted, rows);
  const onKeyDown = (event: KeyboardEvent) => {
    const next = ({ ArrowDown: step + 1, j: step + 1, ArrowUp: step - 1, k: step - 1, Home: 0, End: rows } as Record<string, number>)[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onSelect(Math.min(rows, Math.max(0, next)));
  };
  const sameInstance = a.task_id === bDetail.task_id && a.seed === bDetail.seed;
  return (
    <section>
      <h1>
        Two trials side by side: <span className="subtle">{shortId(a.episode_id)}</span> and <span className="subtle">{shortId(bDetail.episode_id)}</span>
      </h1>
      {!sameInstance && (
        <p className="note" role="note">
          These episodes ran different instances ({a.task_id}#{a.seed} and {bDetail.task_id}#{bDetail.seed}): steps are aligned by number only.
        </p>
      )}
      <p>
        <Link href={`/episodes/${a.episode_id}?step=${step}`}>Open A alone</Link> · <Link href={`/episodes/${bDetail.episode_id}?step=${step}`}>Open B alone</Link>
      </p>
      <div className="two-col">
        <EpisodeHeader episode={a} />
        <EpisodeHeader episode={bDetail} />
      </div>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Steps of both episodes" onKeyDown={onKeyDown}>
        <table className="aligned" aria-label="Steps of both episodes, aligned (arrow keys move between them)">
          <ColumnHeads names={['Step', 'A: action', 'A: reward → score', 'B: action', 'B: reward → score']} />
          <tbody>
            {Array.from({ length: rows + 1 }, (_, n) => {
              const left = n === 0 ? null : aEntries[n - 1];
              const right = n === 0 ? null : bEntries[n - 1];
              // Compared whole: two replies that open alike and part later differ.
              const differ = n > 0 && JSON.stringify(left?.action ?? null) !== JSON.stringify(right?.action ?? null);
              return (
                <tr key={n} data-step={n} className={`${n === step ? 'selected' : ''} ${differ ? 'differ' : ''}`}>
                  <th scope="row">
                    <Link href={hrefOf(n)} aria-current={n === step ? 'step' : undefined}>
                      {n}
                    </Link>
                    {differ && <span className="visually-hidden"> (the trials differ)</span>}
                  </th>
                  <td>{n === 0 ? 'reset' : left ? <code>{describeAction(left.action)}</code> : <span className="subtle">ended</span>}</td>
                  <td className="num">{left ? `${num(left.reward)} → ${num(left.score_after)}` : ''}</td>
                  <td>{n === 0 ? 'reset' : right ? <code>{describeAction(right.action)}</code> : <span className="subtle">ended</span>}</td>
                  <td className="num">{right ? `${num(right.reward)} → ${num(right.score_after)}` : ''}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="two-col">
        <div>{step <= aEntries.length ? <StepDetail episodeId={a.episode_id} step={step} /> : <p className="subtle">A ended at step {aEntries.length}.</p>}</div>
        <div>{step <= bEntries.length ? <StepDetail episodeId={bDetail.episode_id} step={step} /> : <p className="subtle">B ended at step {bEntries.length}.</p>}</div>
      </div>
    </section>
  );
}
