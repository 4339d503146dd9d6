import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { unwrap, type Schemas } from '../api';
import { CursorPager } from '../components/Pager';
import { Progress } from '../components/Progress';
import { Empty, Loaded } from '../components/states';
import { dateTime } from '../format';
import { useSession } from '../session';
import { ColumnHeads } from '../components/ColumnHeads';

const SPLITS = ['', 'test', 'train', 'canonical'] as const;
const STATUSES = ['', 'open', 'complete'] as const;

export function RunsPage() {
  const { client } = useSession();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const split = params.get('split') ?? '';
  const status = params.get('status') ?? '';
  const agent = params.get('agent') ?? '';
  const cursors = params.getAll('page');
  const query = {
    ...(split ? { split: split as Schemas['RunSplit'] } : {}),
    ...(status ? { status: status as Schemas['RunStatus'] } : {}),
    ...(agent ? { agent } : {}),
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
    limit: 50,
  };
  const runs = useQuery({
    queryKey: ['runs', query],
    queryFn: () => unwrap(client.GET('/runs', { params: { query } })),
    placeholderData: keepPreviousData,
    // While any listed run is filling, its progress moves.
    refetchInterval: (q) => (q.state.data?.runs.some((r) => r.status === 'open') ? 5000 : false),
  });
  const go = (changes: Record<string, string>, pages: string[] = []) => {
    const next = new URLSearchParams({ split, status, agent, ...changes });
    for (const [key, value] of [...next.entries()]) if (!value) next.delete(key);
    for (const page of pages) next.append('page', page);
    navigate(`/runs${next.size ? `?${next}` : ''}`);
  };
  return (
    <section>
      <h1>Runs</h1>
      <form className="filters" onSubmit={(event) => event.preventDefault()}>
        {(
          [
            ['Split', 'split', split, SPLITS],
            ['Status', 'status', status, STATUSES],
          ] as const
        ).map(([label, name, value, choices]) => (
          <label key={name}>
            {label}
            <select value={value} onChange={(event) => go({ [name]: event.target.value })}>
              {choices.map((choice) => (
                <option key={choice} value={choice}>
                  {choice || 'any'}
                </option>
              ))}
            </select>
          </label>
        ))}
        <label>
          Agent
          <input key={agent} defaultValue={agent} onBlur={(event) => event.target.value !== agent && go({ agent: event.target.value })} onKeyDown={(event) => event.key === 'Enter' && go({ agent: event.currentTarget.value })} />
        </label>
      </form>
      <Loaded query={runs} label="runs" minHeight={300}>
        {(page) =>
          page.runs.length === 0 ? (
            <Empty>
              No runs {split || status || agent ? 'match these filters' : 'yet'}. A run is created with <code>POST /runs</code> (or <code>npm run agent</code>, which creates and
              fills one); see docs/evaluating-agents.md.
            </Empty>
          ) : (
            <>
              <div className="table-wrap" tabIndex={0} role="region" aria-label="Runs">
                <table>
                  <ColumnHeads names={['Name', 'Agent', 'Split', 'Cells', 'Progress', 'Created']} />
                  <tbody>
                    {page.runs.map((run) => (
                      <tr key={run.run_id} data-run={run.run_id}>
                        <td>
                          <Link href={`/runs/${run.run_id}`}>{run.name}</Link>
                        </td>
                        <td>
                          {run.agent}
                          {run.model ? ` (${run.model})` : ''}
                        </td>
                        <td>{run.split}</td>
                        <td className="num">
                          {run.families.length}×{run.seeds.length}×{run.trials}
                        </td>
                        <td>
                          <Progress progress={run.progress} />
                        </td>
                        <td>{dateTime(run.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <CursorPager cursors={cursors} next={page.next_cursor} shown={page.runs.length} onChange={(pages) => go({}, pages)} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
