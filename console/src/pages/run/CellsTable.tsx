import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { unwrap, type Schemas } from '../../api';
import { Pager } from '../../components/Pager';
import { Empty, Loaded } from '../../components/states';
import { num } from '../../format';
import { useSession } from '../../session';

type Cell = Schemas['CellDto'];
/** The API's largest page of cells: a run of up to 20,000 cells takes at most 20 requests. */
const API_PAGE = 1000;
/** Rows (family and seed) shown at once. */
const ROWS_PER_PAGE = 100;

/**
 * The run's cells, a row per (family, seed) with its trials side by side, each linking to its episode. Every cell is
 * read (the API pages them trial by trial, so one page of the API does not hold a seed's trials together), then
 * shown a hundred rows at a time; the row page is in the URL (`cells=`).
 */
export function CellsTable({ run }: { run: Schemas['RunDto'] }) {
  const { client } = useSession();
  const queryClient = useQueryClient();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const live = run.status === 'open';
  const cells = useQuery({
    queryKey: ['cells', run.run_id],
    queryFn: async () => {
      const all: Cell[] = [];
      for (let cursor: string | undefined; ; ) {
        const page = await unwrap(client.GET('/runs/{run_id}/cells', { params: { path: { run_id: run.run_id }, query: { limit: API_PAGE, ...(cursor ? { cursor } : {}) } } }));
        all.push(...page.cells);
        if (!page.next_cursor) return all;
        cursor = page.next_cursor;
      }
    },
    placeholderData: keepPreviousData,
    refetchInterval: live ? 4000 : false,
  });
  // The last poll of a filling run may be older than its completion: read the cells once more when it completes.
  useEffect(() => {
    if (!live) void queryClient.invalidateQueries({ queryKey: ['cells', run.run_id] });
  }, [live, queryClient, run.run_id]);
  return (
    <Loaded query={cells} label="the cells" minHeight={400}>
      {(all) => {
        if (all.length === 0) return <Empty>This run has no cells.</Empty>;
        const groups = new Map<string, Cell[]>();
        for (const cell of all) {
          const key = `${cell.task_id}#${cell.seed}`;
          groups.set(key, [...(groups.get(key) ?? []), cell]);
        }
        const rows = [...groups.entries()].sort(([, a], [, b]) => a[0].task_id.localeCompare(b[0].task_id) || a[0].seed - b[0].seed);
        const pages = Math.ceil(rows.length / ROWS_PER_PAGE);
        const page = Math.min(Math.max(0, Number.parseInt(params.get('cells') ?? '0', 10) || 0), pages - 1);
        const goTo = (n: number) => {
          const next = new URLSearchParams(params);
          if (n === 0) next.delete('cells');
          else next.set('cells', String(n));
          navigate(`${location}${next.size ? `?${next}` : ''}`, { replace: true });
        };
        return (
          <>
            <div className="table-wrap" tabIndex={0} role="region" aria-label="Cells">
              <table className="cells-table">
                <thead>
                  <tr>
                    <th scope="col">Family</th>
                    <th scope="col">Seed</th>
                    {Array.from({ length: run.trials }, (_, t) => (
                      <th scope="col" key={t}>
                        Trial {t}
                      </th>
                    ))}
                    <th scope="col">Trials side by side</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.slice(page * ROWS_PER_PAGE, (page + 1) * ROWS_PER_PAGE).map(([key, group]) => {
                    const played = group.filter((c) => c.episode_id !== null).sort((a, b) => a.trial - b.trial);
                    return (
                      <tr key={key} data-cell-group={key}>
                        <th scope="row">{group[0].task_id}</th>
                        <td className="num">{group[0].seed}</td>
                        {Array.from({ length: run.trials }, (_, t) => {
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
            <Pager
              label="Pages of cells"
              position={`Rows ${page * ROWS_PER_PAGE + 1}–${Math.min(rows.length, (page + 1) * ROWS_PER_PAGE)} of ${rows.length} (${all.length} cells)`}
              canPrevious={page > 0}
              canNext={page < pages - 1}
              onPrevious={() => goTo(page - 1)}
              onNext={() => goTo(page + 1)}
            />
          </>
        );
      }}
    </Loaded>
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
