import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { unwrap } from '../api';
import { CursorPager } from '../components/Pager';
import { Empty, Loaded } from '../components/states';
import { dateTime, num } from '../format';
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
    // The API's bound is exclusive: up to the end of the chosen day is before the next day's start (UTC).
    ...(filters.created_before ? { created_before: nextDayStart(filters.created_before) } : {}),
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
  // The form's fields follow the address (Back, Forward, a shared link) and keep focus when applied.
  const [draft, setDraft] = useState<Record<string, string>>(filters);
  const filtersKey = JSON.stringify(filters);
  useEffect(() => setDraft(JSON.parse(filtersKey) as Record<string, string>), [filtersKey]);
  const field = (name: string) => ({ name, value: draft[name] ?? '', onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }) });
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    show(Object.fromEntries(FILTER_NAMES.map((name) => [name, (draft[name] ?? '').trim()])));
  };
  return (
    <section>
      <h1>Episodes</h1>
      <form className="filters" onSubmit={apply} aria-label="Episode filters">
        <label>
          Family
          <select {...field('task_id')}>
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
            <select {...field(name)}>
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
            <input {...field(name)} />
          </label>
        ))}
        <label>
          min score
          <input {...field('min_score')} type="number" min={0} max={1} step={0.01} />
        </label>
        <label>
          max score
          <input {...field('max_score')} type="number" min={0} max={1} step={0.01} />
        </label>
        <label>
          created from (UTC)
          <input {...field('created_after')} type="date" />
        </label>
        <label>
          created to (UTC)
          <input {...field('created_before')} type="date" />
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
              <div className="table-wrap" tabIndex={0} role="region" aria-label="Episodes">
                <table className="episodes-table">
                  <ColumnHeads names={['Episode', 'Family', 'Seed', 'Split', 'Variant', 'Feedback', 'Agent', 'Status', 'Score', 'Steps', 'Created']} />
                  <tbody>
                    {page.items.map((e) => (
                      <tr key={`${e.tenant_id}:${e.episode_id}`} data-episode={e.episode_id}>
                        <td>
                          <Link href={`/episodes/${e.episode_id}`} className="episode-id" title={e.episode_id}>
                              {e.episode_id}
                            </Link>
                        </td>
                        <td>{e.task_id}</td>
                        <td className="num">{e.seed}</td>
                        <td data-field="split">{e.split ?? '—'}</td>
                        <td>{e.variant}</td>
                        <td data-field="feedback">{e.feedback}</td>
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
              <CursorPager cursors={cursors} next={page.next_cursor} shown={page.items.length} onChange={(pages) => show(filters, pages)} />
            </>
          )
        }
      </Loaded>
    </section>
  );
}

/** The start of the day after a YYYY-MM-DD date, UTC, as the API takes a time. */
function nextDayStart(date: string): string {
  const start = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(start) ? `${date}T00:00:00Z` : new Date(start + 86_400_000).toISOString();
}
