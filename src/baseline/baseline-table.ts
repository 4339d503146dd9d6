import { COMPONENT_WEIGHTS } from '../engine/grader';
import type { BaselineResponseDto } from './dto/baseline.dto';

/** A fixed-width table of the baseline run: the same input always prints the same bytes. */
export function formatBaselineTable(report: BaselineResponseDto, difficulties: Record<string, string>): string {
  const components = Object.keys(COMPONENT_WEIGHTS);
  const header = ['task', 'difficulty', 'score', 'steps', ...components];
  const rows = report.results.map((r) => [
    r.task_id,
    difficulties[r.task_id] ?? '',
    r.score.toFixed(3),
    String(r.steps),
    ...components.map((name) => (r.components.find((c) => c.name === name)?.earned ?? 0).toFixed(3)),
  ]);
  rows.push(['mean', '', report.mean_score.toFixed(3), '', ...components.map(() => '')]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [
    `SupportDesk baseline: policy ${report.policy}, seed ${report.seed}`,
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
  ].join('\n');
}
