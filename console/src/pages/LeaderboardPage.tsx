import * as Plot from '@observablehq/plot';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { unwrap, type Schemas } from '../api';
import { PlotFigure } from '../components/PlotFigure';
import { Empty, Loaded } from '../components/states';
import { dateTime, interval, shortId } from '../format';
import { useSession } from '../session';

type Board = Schemas['LeaderboardBoardDto'];
type Split = Schemas['RunSplit'];
const SPLITS: Split[] = ['test', 'train', 'canonical'];

export function LeaderboardPage() {
  const { client } = useSession();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const split = (SPLITS as string[]).includes(params.get('split') ?? '') ? (params.get('split') as Split) : 'test';
  const board = useQuery({
    queryKey: ['leaderboard', split],
    queryFn: () => unwrap(client.GET('/leaderboard', { params: { query: { split } } })),
  });
  return (
    <section>
      <h1>Leaderboard</h1>
      <div className="toolbar">
        <label htmlFor="split">Split</label>
        <select id="split" value={split} onChange={(event) => navigate(`/?split=${event.target.value}`)}>
          {SPLITS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
      </div>
      <Loaded query={board} label="the leaderboard" minHeight={320}>
        {(leaderboard) =>
          leaderboard.boards.length === 0 ? (
            <Empty>
              No complete run on the {split} split yet. Start one with <code>POST /runs</code> and fill it with <code>npm run agent</code> (docs/evaluating-agents.md);
              it is ranked here once every cell is finished.
            </Empty>
          ) : (
            <>
              <p className="note">{leaderboard.tie_rule}</p>
              {leaderboard.boards.map((b) => (
                <BoardView key={b.config_hash} board={b} />
              ))}
            </>
          )
        }
      </Loaded>
    </section>
  );
}

function BoardView({ board }: { board: Board }) {
  const tierSizes = new Map<number, number>();
  for (const entry of board.entries) tierSizes.set(entry.tier, (tierSizes.get(entry.tier) ?? 0) + 1);
  const k = board.trials;
  const options = useMemo<Plot.PlotOptions>(() => {
    const rows = board.entries.map((e) => ({
      label: `#${e.rank} ${e.agent}${e.model ? ` (${e.model})` : ''}`,
      tier: `tier ${e.tier}`,
      p1: e.pass_hat_1.estimate,
      p1low: e.pass_hat_1.low,
      p1high: e.pass_hat_1.high,
      pk: e.pass_hat_k.estimate,
      pklow: e.pass_hat_k.low,
      pkhigh: e.pass_hat_k.high,
    }));
    return {
      marginLeft: 180,
      x: { domain: [0, 1], label: `pass^1 (dot, bar) and pass^${k} (ring, thin bar), 95% intervals`, grid: true },
      y: { label: null, domain: rows.map((r) => r.label) },
      color: { legend: true, type: 'categorical' },
      marks: [
        Plot.ruleY(rows, { y: 'label', x1: 'p1low', x2: 'p1high', stroke: 'tier', strokeWidth: 6, strokeOpacity: 0.45 }),
        Plot.dot(rows, { y: 'label', x: 'p1', fill: 'tier', r: 5 }),
        Plot.ruleY(rows, { y: 'label', x1: 'pklow', x2: 'pkhigh', stroke: 'tier', strokeWidth: 1.5, dy: 9 }),
        Plot.dot(rows, { y: 'label', x: 'pk', stroke: 'tier', r: 4, dy: 9 }),
      ],
    };
  }, [board, k]);
  return (
    <article className="card board" data-config={board.config_hash}>
      <h2>
        {board.families.length} {board.families.length === 1 ? 'family' : 'families'} × {board.seed_count} seeds × {board.trials}{' '}
        {board.trials === 1 ? 'trial' : 'trials'}
      </h2>
      <p className="note">
        Success threshold {board.success_threshold}; grader v{board.versions.grader}; configuration <code>{shortId(board.config_hash)}</code>. Runs are ranked
        against others of the same configuration only.
      </p>
      <PlotFigure options={options} height={100 + board.entries.length * 36} label={`pass^1 and pass^${k} with intervals per agent`} />
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Agents ranked">
        <table className="leaderboard-table">
          <caption className="visually-hidden">Agents ranked by pass^1</caption>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Tier</th>
              <th scope="col">Agent</th>
              <th scope="col">Model</th>
              <th scope="col">pass^1</th>
              <th scope="col">pass^{k}</th>
              <th scope="col">Mean score</th>
              <th scope="col">Run</th>
              <th scope="col">Completed</th>
            </tr>
          </thead>
          <tbody>
            {board.entries.map((e) => (
              <tr key={e.run_id} data-run={e.run_id}>
                <td>{e.rank}</td>
                <td>
                  {e.tier}
                  {(tierSizes.get(e.tier) ?? 0) > 1 && <span className="badge tie" title="Within noise of its tier's leader: a tie">tied</span>}
                </td>
                <td>{e.agent}</td>
                <td>{e.model ?? '—'}</td>
                <td className="num" data-field="pass_hat_1">{interval(e.pass_hat_1)}</td>
                <td className="num" data-field="pass_hat_k">{interval(e.pass_hat_k)}</td>
                <td className="num" data-field="mean_score">{interval(e.mean_score)}</td>
                <td>
                  <Link href={`/runs/${e.run_id}`}>{shortId(e.run_id)}</Link>
                </td>
                <td>{dateTime(e.completed_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}
