import { useQuery } from '@tanstack/react-query';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { unwrap, type Schemas } from '../api';
import { ColumnHeads } from '../components/ColumnHeads';
import { Progress } from '../components/Progress';
import { ErrorState, Loading } from '../components/states';
import { count, dateTime, interval, num, percent, shortId } from '../format';
import { useSession } from '../session';
import { CellsTable } from './run/CellsTable';
import { CompareView } from './run/CompareView';
import { FamilyCharts } from './run/FamilyCharts';

type Run = Schemas['RunDto'];
type Results = Schemas['RunResultsDto'];

/** While a run fills, its page asks again this often (a 1,200-cell run's results take the server well under this). */
const LIVE_POLL_MS = 2000;

export function RunPage() {
  const { runId } = useParams<{ runId: string }>();
  const { client } = useSession();
  const compareWith = new URLSearchParams(useSearch()).get('compare');
  const run = useQuery({
    queryKey: ['run', runId],
    queryFn: () => unwrap(client.GET('/runs/{run_id}', { params: { path: { run_id: runId } } })),
    refetchInterval: (q) => (q.state.data?.status === 'open' ? LIVE_POLL_MS : false),
  });
  if (run.isPending) return <Loading label="the run" minHeight={600} />;
  if (run.isError) return <ErrorState error={run.error} retry={() => run.refetch()} />;
  const r = run.data;
  return (
    <section>
      <h1>
        Run {r.name} <span className="subtle">{shortId(r.run_id)}</span>
      </h1>
      <RunHeader run={r} />
      {r.results ? <ResultsView run={r} results={r.results} /> : <p className="note withheld">{r.results_withheld ?? 'No results yet.'}</p>}
      <h2>Compare with another run</h2>
      <ComparePicker run={r} selected={compareWith} />
      {compareWith && <CompareView runA={r.run_id} runB={compareWith} />}
      <h2>Cells</h2>
      <CellsTable key={r.run_id} run={r} />
    </section>
  );
}

function RunHeader({ run }: { run: Run }) {
  return (
    <div className="card">
      <dl className="facts">
        <dt>Agent</dt>
        <dd>
          {run.agent}
          {run.model ? ` (${run.model})` : ''}
        </dd>
        <dt>Split</dt>
        <dd>{run.split}</dd>
        <dt>Feedback</dt>
        <dd>{run.feedback}</dd>
        <dt>Status</dt>
        <dd data-field="status">
          {run.status}
          {run.status === 'open' && <span className="badge live">live</span>}
        </dd>
        <dt>Cells</dt>
        <dd>
          {run.families.length} families × {run.seeds.length} seeds × {run.trials} trials
        </dd>
        <dt>Success threshold</dt>
        <dd>{run.success_threshold}</dd>
        <dt>Versions</dt>
        <dd>
          grader v{run.versions.grader};{' '}
          {Object.entries(run.versions.generators)
            .map(([family, version]) => `${family} ${String(version)}`)
            .join(', ')}
        </dd>
        <dt>Created</dt>
        <dd>{dateTime(run.created_at)}</dd>
        <dt>Completed</dt>
        <dd>{dateTime(run.completed_at)}</dd>
        <dt>Configuration</dt>
        <dd>
          <code>{shortId(run.config_hash)}</code>
        </dd>
      </dl>
      <Progress progress={run.progress} />
    </div>
  );
}

function ResultsView({ run, results }: { run: Run; results: Results }) {
  const o = results.overall;
  const k = run.trials;
  return (
    <>
      <h2>Results</h2>
      <div className="stat-grid" data-section="overall">
        <Stat label="Mean score" value={interval(o.mean_score)} field="mean_score" />
        <Stat label="Success rate" value={interval(o.success_rate)} field="success_rate" />
        <Stat label="pass^1" value={interval(o.pass_hat_k.find((p) => p.k === 1))} field="pass_hat_1" />
        {k > 1 && <Stat label={`pass^${k}`} value={interval(o.pass_hat_k.find((p) => p.k === k))} field="pass_hat_k" />}
        <Stat label="Flip rate" value={percent(o.flip_rate)} field="flip_rate" />
        <Stat label="Cells finished" value={`${o.cells}`} field="cells" />
      </div>
      <p className="note">
        {Math.round(results.method.level * 100)}% intervals: {results.method.estimand}; {results.method.resampling}, {count(results.method.resamples)} resamples.
      </p>
      <FamilyCharts results={results} trials={k} />
      <h3>By family</h3>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Results by family">
        <table className="family-table">
          <ColumnHeads names={['Family', 'Cells', 'Mean score', 'Success rate', ...(results.families[0]?.pass_hat_k.map((p) => `pass^${p.k}`) ?? []), 'Flip rate', 'Mean penalty']} />
          <tbody>
            {results.families.map((f) => (
              <tr key={f.task_id} data-family={f.task_id}>
                <th scope="row">{f.task_id}</th>
                <td className="num">{f.cells}</td>
                <td className="num" data-field="mean_score">{interval(f.mean_score)}</td>
                <td className="num" data-field="success_rate">{interval(f.success_rate)}</td>
                {f.pass_hat_k.map((p) => (
                  <td className="num" key={p.k} data-field={`pass_hat_${p.k}`}>
                    {interval(p)}
                  </td>
                ))}
                <td className="num" data-field="flip_rate">{percent(f.flip_rate)}</td>
                <td className="num">{num(f.mean_penalty)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ComponentsTable results={results} />
      <div className="two-col">
        <div>
          <h3>Terminations</h3>
          <table className="compact" data-section="terminations">
            <tbody>
              {Object.entries(results.terminations).map(([reason, n]) => (
                <tr key={reason}>
                  <th scope="row">{reason.replaceAll('_', ' ')}</th>
                  <td className="num" data-field={reason}>{n}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div>
          <h3>Steps, time and tokens</h3>
          <table className="compact" data-section="totals">
            <tbody>
              <tr>
                <th scope="row">Steps</th>
                <td className="num" data-field="steps">{count(results.totals.steps)}</td>
              </tr>
              <tr>
                <th scope="row">Mean steps per cell</th>
                <td className="num">{num(results.totals.mean_steps, 1)}</td>
              </tr>
              <tr>
                <th scope="row">Mean wall time per cell</th>
                <td className="num">{results.totals.mean_wall_ms === null ? '—' : `${count(Math.round(results.totals.mean_wall_ms))} ms`}</td>
              </tr>
              <tr>
                <th scope="row">Input tokens</th>
                <td className="num" data-field="input_tokens">{count(results.totals.input_tokens)}</td>
              </tr>
              <tr>
                <th scope="row">Output tokens</th>
                <td className="num" data-field="output_tokens">{count(results.totals.output_tokens)}</td>
              </tr>
            </tbody>
          </table>
        </div>
      </div>
    </>
  );
}

/** What each grade component earned on average, family by family (a column per component). */
function ComponentsTable({ results }: { results: Results }) {
  const names = [...new Set(results.families.flatMap((f) => f.components.map((c) => c.name)))];
  if (names.length === 0) return null;
  return (
    <>
      <h3>Grade components, mean earned</h3>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Grade components by family">
        <table data-section="components">
          <ColumnHeads names={['Family', ...names.map((name) => name.replaceAll('_', ' '))]} />
          <tbody>
            {results.families.map((f) => (
              <tr key={f.task_id} data-family={f.task_id}>
                <th scope="row">{f.task_id}</th>
                {names.map((name) => (
                  <td className="num" key={name} data-component={name}>
                    {num(f.components.find((c) => c.name === name)?.mean)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function Stat({ label, value, field }: { label: string; value: string; field: string }) {
  return (
    <div className="stat" data-field={field}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
    </div>
  );
}

function ComparePicker({ run, selected }: { run: Run; selected: string | null }) {
  const { client } = useSession();
  const [, navigate] = useLocation();
  const candidates = useQuery({
    queryKey: ['runs', { split: run.split, limit: 200 }],
    queryFn: () => unwrap(client.GET('/runs', { params: { query: { split: run.split, limit: 200 } } })),
  });
  // Only runs of the same configuration pair cell by cell (the API answers 409 for others).
  const others = (candidates.data?.runs ?? []).filter((c) => c.run_id !== run.run_id && c.config_hash === run.config_hash);
  return (
    <div className="toolbar">
      <label htmlFor="compare-with">Compare {run.name} with</label>
      <select
        id="compare-with"
        value={selected ?? ''}
        disabled={candidates.isPending}
        onChange={(event) => navigate(`/runs/${run.run_id}${event.target.value ? `?compare=${encodeURIComponent(event.target.value)}` : ''}`)}
      >
        <option value="">{candidates.isPending ? 'loading runs…' : others.length ? 'choose a run' : 'no other run of this configuration'}</option>
        {others.map((c) => (
          <option key={c.run_id} value={c.run_id}>
            {c.name} — {c.agent} ({c.status}, {shortId(c.run_id)})
          </option>
        ))}
      </select>
      {selected && <Link href={`/runs/${selected}`}>open {shortId(selected)}</Link>}
    </div>
  );
}
