import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { unwrap } from '../api';
import { Pager } from '../components/Pager';
import { Empty, Loaded } from '../components/states';
import { dateTime, num, shortId } from '../format';
import { useSession } from '../session';
import { ColumnHeads } from '../components/ColumnHeads';

/** The /episodes filters the browser offers, each as its query parameter (and the URL's). */
const TEXT_FILTERS = ['agent', 'run_id', 'run_label', 'tag'] as const;
const CHOICES = {
  split: ['train', 'test'],
  variant: ['generated', 'canonical'],
  feedback: ['dense', 'final'],
  status: ['active', 'resolved', 'out_of_steps', 'expired'],
} as const;
const FILTER_NAMES = ['task_id', ...TEXT_FILTERS, ...Object.keys(CHOICES), 'min_score', 'max_score', 'created_after', 'created_before'];

export function EpisodesPage() {
  const { client } = useSession();
  const [, navigate] = useLocation();
  const params = new URLSearchParams(useSearch());
  const filters = Object.fromEntries(FILTER_NAMES.map((name) => [name, params.get(name) ?? '']).filter(([, value]) => value !== ''));
  const cursors = params.getAll('page');
  const query = {
    ...filters,
    ...(filters.min_score ? { min_score: Number(filters.min_score) } : {}),
    ...(filters.max_score ? { max_score: Number(filters.max_score) } : {}),
    ...(filters.created_after ? { created_after: `${filters.created_after}T00:00:00Z` } : {}),
    ...(filters.created_before ? { created_before: `${filters.created_before}T23:59:59Z` } : {}),
    ...(cursors.length ? { cursor: cursors[cursors.length - 1] } : {}),
    limit: 50,
  };
  const tasks = useQuery({ queryKey: ['tasks'], queryFn: () => unwrap(client.GET('/tasks')) });
  const episodes = useQuery({
    queryKey: ['episodes', query],
    // The filters are the API's own query parameters; the server validates them (422 names a bad one).
    queryFn: () => unwrap(client.GET('/episodes', { params: { query: query as never } })),
    placeholderData: keepPreviousData,
  });
  const show = (next: Record<string, string>, pages: string[] = []) => {
    const search = new URLSearchParams(Object.entries(next).filter(([, value]) => value !== ''));
    for (const page of pages) search.append('page', page);
    navigate(`/episodes${search.size ? `?${search}` : ''}`);
  };
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    show(Object.fromEntries(FILTER_NAMES.map((name) => [name, String(form.get(name) ?? '').trim()])));
  };
  return (
    <section>
      <h1>Episodes</h1>
      <form className="filters" onSubmit={apply} key={params.toString()} aria-label="Episode filters">
        <label>
          Family
          <select name="task_id" defaultValue={filters.task_id ?? ''}>
            <option value="">any</option>
            {tasks.data?.tasks.map((t) => (
              <option key={t.id} value={t.id}>
                {t.id}
              </option>
            ))}
            {filters.task_id && !tasks.data?.tasks.some((t) => t.id === filters.task_id) && <option value={filters.task_id}>{filters.task_id}</option>}
          </select>
        </label>
        {Object.entries(CHOICES).map(([name, values]) => (
          <label key={name}>
            {name.replace('_', ' ')}
            <select name={name} defaultValue={filters[name] ?? ''}>
              <option value="">any</option>
              {values.map((v) => (
                <option key={v} value={v}>
                  {v.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
          </label>
        ))}
        {TEXT_FILTERS.map((name) => (
          <label key={name}>
            {name.replace('_', ' ')}
            <input name={name} defaultValue={filters[name] ?? ''} />
          </label>
        ))}
        <label>
          min score
          <input name="min_score" type="number" min={0} max={1} step={0.01} defaultValue={filters.min_score ?? ''} />
        </label>
        <label>
          max score
          <input name="max_score" type="number" min={0} max={1} step={0.01} defaultValue={filters.max_score ?? ''} />
        </label>
        <label>
          created from
          <input name="created_after" type="date" defaultValue={filters.created_after ?? ''} />
        </label>
        <label>
          created to
          <input name="created_before" type="date" defaultValue={filters.created_before ?? ''} />
        </label>
        <div className="filter-actions">
          <button type="submit">Apply filters</button>
          <button type="button" onClick={() => show({})}>
            Clear
          </button>
        </div>
      </form>
      <Loaded query={episodes} label="episodes" minHeight={400}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>{Object.keys(filters).length ? 'No episode matches these filters. Widen or clear them.' : 'No episodes yet. Agents create them with POST /reset.'}</Empty>
          ) : (
            <>
              <div className="table-wrap" tabIndex={0}>
                <table className="episodes-table">
                  <ColumnHeads names={['Episode', 'Family', 'Seed', 'Split', 'Variant', 'Feedback', 'Agent', 'Status', 'Score', 'Steps', 'Created']} />
                  <tbody>
                    {page.items.map((e) => (
                      <tr key={e.episode_id} data-episode={e.episode_id}>
                        <td>
                          <Link href={`/episodes/${e.episode_id}`}>{shortId(e.episode_id)}</Link>
                        </td>
                        <td>{e.task_id}</td>
                        <td className="num">{e.seed}</td>
                        <td>{e.split ?? '—'}</td>
                        <td>{e.variant}</td>
                        <td>{e.feedback}</td>
                        <td>{e.agent ?? '—'}</td>
                        <td>{e.status.replaceAll('_', ' ')}</td>
                        <td className="num" data-field="score">{num(e.score)}</td>
                        <td className="num">{e.step_count}</td>
                        <td>{dateTime(e.created_at)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager cursors={cursors} next={page.next_cursor} shown={page.items.length} onChange={(pages) => show(filters, pages)} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}
