import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { unwrap, type Schemas } from '../../api';
import { Pager } from '../../components/Pager';
import { Empty, ErrorState, Loading } from '../../components/states';
import { num } from '../../format';
import { useSession } from '../../session';

type Cell = Schemas['CellDto'];
const PAGE = 300;

/** The run's cells, a row per (family, seed) with its trials side by side, each linking to its episode. */
export function CellsTable({ runId, live }: { runId: string; live: boolean }) {
  const { client } = useSession();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const cells = useQuery({
    queryKey: ['cells', runId, cursor ?? null],
    queryFn: () => unwrap(client.GET('/runs/{run_id}/cells', { params: { path: { run_id: runId }, query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
    refetchInterval: live ? 4000 : false,
  });
  if (cells.isPending) return <Loading label="the cells" minHeight={400} />;
  if (cells.isError) return <ErrorState error={cells.error} retry={() => cells.refetch()} />;
  if (cells.data.cells.length === 0) return <Empty>This run has no cells.</Empty>;
  const groups = new Map<string, Cell[]>();
  for (const cell of cells.data.cells) {
    const key = `${cell.task_id}#${cell.seed}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  const trials = Math.max(...[...groups.values()].map((g) => Math.max(...g.map((c) => c.trial)))) + 1;
  return (
    <>
      <div className="table-wrap" tabIndex={0}>
        <table className="cells-table">
          <thead>
            <tr>
              <th scope="col">Family</th>
              <th scope="col">Seed</th>
              {Array.from({ length: trials }, (_, t) => (
                <th scope="col" key={t}>
                  Trial {t}
                </th>
              ))}
              <th scope="col">Trials side by side</th>
            </tr>
          </thead>
          <tbody>
            {[...groups.entries()].map(([key, group]) => {
              const played = group.filter((c) => c.episode_id !== null);
              return (
                <tr key={key} data-cell-group={key}>
                  <th scope="row">{group[0].task_id}</th>
                  <td className="num">{group[0].seed}</td>
                  {Array.from({ length: trials }, (_, t) => {
                    const cell = group.find((c) => c.trial === t);
                    return <td key={t}>{cell ? <CellView cell={cell} /> : '—'}</td>;
                  })}
                  <td>
                    {played.length >= 2 ? (
                      <Link href={`/episodes/${played[0].episode_id}?vs=${played[1].episode_id}`}>
                        compare trials {played[0].trial} and {played[1].trial}
                      </Link>
                    ) : (
                      <span className="subtle">—</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Pager cursors={cursors} next={cells.data.next_cursor} shown={cells.data.cells.length} onChange={setCursors} />
    </>
  );
}

function CellView({ cell }: { cell: Cell }) {
  const label = `${cell.status}${cell.termination ? ` (${cell.termination.replaceAll('_', ' ')})` : ''}`;
  const score = cell.score === null ? '' : ` · ${num(cell.score)}`;
  return cell.episode_id ? (
    <Link href={`/episodes/${cell.episode_id}`} className={`cell cell-${cell.status}`}>
      {label}
      {score}
    </Link>
  ) : (
    <span className={`cell cell-${cell.status}`}>{label}</span>
  );
}
