import * as Plot from '@observablehq/plot';
import { useMemo } from 'react';
import type { Schemas } from '../../api';
import { PlotFigure } from '../../components/PlotFigure';

type Results = Schemas['RunResultsDto'];

/** Per-family mean score with its interval, the pass^k curve k = 1..K with its band, and the flip rate. */
export function FamilyCharts({ results, trials }: { results: Results; trials: number }) {
  const groups = useMemo(() => [...results.families.map((f) => ({ name: f.task_id, group: f as Schemas['GroupSummaryDto'] })), { name: 'overall', group: results.overall }], [results]);
  const means = useMemo<Plot.PlotOptions>(() => {
    const rows = groups.map(({ name, group }) => ({ name, ...group.mean_score }));
    return {
      marginLeft: 200,
      x: { domain: [0, 1], grid: true, label: 'mean score (95% interval)' },
      y: { label: null, domain: rows.map((r) => r.name) },
      marks: [
        Plot.ruleY(rows, { y: 'name', x1: 'low', x2: 'high', stroke: 'currentColor', strokeWidth: 5, strokeOpacity: 0.35 }),
        Plot.dot(rows, { y: 'name', x: 'estimate', fill: 'currentColor', r: 4 }),
        Plot.ruleX([results.success_threshold], { stroke: '#b45309', strokeDasharray: '4,3' }),
      ],
    };
  }, [groups, results.success_threshold]);
  const passK = useMemo<Plot.PlotOptions>(() => {
    const rows = groups.flatMap(({ name, group }) => group.pass_hat_k.map((p) => ({ name, ...p })));
    return {
      x: { domain: [1, Math.max(2, trials)], ticks: trials, label: 'k (trials that must all succeed)', grid: true },
      y: { domain: [0, 1], grid: true, label: 'pass^k' },
      color: { legend: true },
      marks: [
        Plot.areaY(rows, { x: 'k', y1: 'low', y2: 'high', fill: 'name', fillOpacity: 0.12 }),
        Plot.line(rows, { x: 'k', y: 'estimate', stroke: 'name', strokeWidth: 2 }),
        Plot.dot(rows, { x: 'k', y: 'estimate', fill: 'name', r: 3 }),
      ],
    };
  }, [groups, trials]);
  const flips = useMemo<Plot.PlotOptions>(() => {
    const rows = groups.filter(({ group }) => group.flip_rate !== null).map(({ name, group }) => ({ name, flip: group.flip_rate }));
    return {
      marginLeft: 200,
      x: { domain: [0, 1], grid: true, label: 'flip rate: seeds whose trials disagree on success', percent: false },
      y: { label: null, domain: rows.map((r) => r.name) },
      marks: [Plot.barX(rows, { y: 'name', x: 'flip', fill: '#6366f1' }), Plot.ruleX([0])],
    };
  }, [groups]);
  const rowsHeight = 50 + groups.length * 28;
  return (
    <div className="charts">
      <figure>
        <figcaption>Mean score by family (dashed: success threshold)</figcaption>
        <PlotFigure options={means} height={rowsHeight} label="Mean score by family with 95% intervals" />
      </figure>
      <figure>
        <figcaption>pass^k, k = 1..{trials}, with 95% bands</figcaption>
        <PlotFigure options={passK} height={300} label="pass^k curves by family with 95% bands" />
      </figure>
      {trials > 1 && (
        <figure>
          <figcaption>Flip rate by family</figcaption>
          <PlotFigure options={flips} height={rowsHeight} label="Flip rate by family" />
        </figure>
      )}
    </div>
  );
}
