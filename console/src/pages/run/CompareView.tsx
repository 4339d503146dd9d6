import * as Plot from '@observablehq/plot';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { unwrap, type Schemas } from '../../api';
import { PlotFigure } from '../../components/PlotFigure';
import { ErrorState, Loading } from '../../components/states';
import { interval, num, shortId } from '../../format';
import { useSession } from '../../session';
import { ColumnHeads } from '../../components/ColumnHeads';

type Paired = Schemas['PairedSummaryDto'];

const VERDICT_WORDS: Record<Schemas['ComparisonVerdict'], string> = {
  a_better: 'A is better',
  b_better: 'B is better',
  within_noise: 'within noise',
};

/** Paired differences of two runs (A minus B), per family and overall, with the verdict of each. */
export function CompareView({ runA, runB }: { runA: string; runB: string }) {
  const { client } = useSession();
  const comparison = useQuery({
    queryKey: ['compare', runA, runB],
    queryFn: () => unwrap(client.GET('/runs/{run_a}/compare/{run_b}', { params: { path: { run_a: runA, run_b: runB } } })),
  });
  const options = useMemo<Plot.PlotOptions | null>(() => {
    if (!comparison.data) return null;
    const rows = [...comparison.data.families.map((f) => ({ name: f.task_id, ...f.difference })), { name: 'overall', ...comparison.data.overall.difference }];
    return {
      marginLeft: 200,
      x: { grid: true, label: 'mean score A − B, paired (95% interval)' },
      y: { label: null, domain: rows.map((r) => r.name) },
      marks: [
        Plot.ruleX([0], { stroke: '#b45309' }),
        Plot.ruleY(rows, { y: 'name', x1: 'low', x2: 'high', strokeWidth: 5, strokeOpacity: 0.35 }),
        Plot.dot(rows, { y: 'name', x: 'estimate', fill: 'currentColor', r: 4 }),
      ],
    };
  }, [comparison.data]);
  if (comparison.isPending) return <Loading label="the comparison" minHeight={260} />;
  if (comparison.isError) return <ErrorState error={comparison.error} retry={() => comparison.refetch()} />;
  const c = comparison.data;
  return (
    <div className="card compare" data-section="compare">
      <p>
        A = <code>{shortId(c.run_a)}</code>, B = <code>{shortId(c.run_b)}</code>. Overall: <strong data-field="verdict">{VERDICT_WORDS[c.overall.verdict]}</strong>, difference{' '}
        <span data-field="difference">{interval(c.overall.difference)}</span> over {c.overall.pairs} paired cells ({c.unpaired_a} of A and {c.unpaired_b} of B unpaired).
      </p>
      {options && <PlotFigure options={options} height={60 + (c.families.length + 1) * 28} label="Paired differences by family with 95% intervals" />}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Paired differences by family">
        <table>
          <ColumnHeads names={['Family', 'Pairs', 'Mean A', 'Mean B', 'A − B', 'Smallest detectable', 'Sign test (A/B/ties, p)', 'Verdict']} />
          <tbody>
            {[...c.families.map((f) => [f.task_id, f] as const), ['overall', c.overall] as const].map(([name, row]: readonly [string, Paired]) => (
              <tr key={name} data-family={name}>
                <th scope="row">{name}</th>
                <td className="num">{row.pairs}</td>
                <td className="num">{num(row.mean_a)}</td>
                <td className="num">{num(row.mean_b)}</td>
                <td className="num" data-field="difference">{interval(row.difference)}</td>
                <td className="num">{num(row.minimum_detectable_difference)}</td>
                <td className="num">
                  {row.sign_test.a_better}/{row.sign_test.b_better}/{row.sign_test.ties}, p={num(row.sign_test.p_value)}
                </td>
                <td data-field="verdict">
                  <span className={`badge verdict-${row.verdict}`}>{VERDICT_WORDS[row.verdict]}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="note">
        {c.method.estimand}; {c.method.resampling}; {c.method.sign_test}; {c.method.minimum_detectable_difference}
      </p>
    </div>
  );
}
