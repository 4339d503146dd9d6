import type { BaselineResponseDto } from './dto/baseline.dto';

/** A fixed-width table of the baseline run: the same input always prints the same bytes. */
export function formatBaselineTable(report: BaselineResponseDto, difficulties: Record<string, string>): string {
  const n = report.seeds_per_split;
  const header = ['task', 'difficulty', 'canonical', `train (${n} seeds)`, `test (${n} seeds)`];
  const rows = report.results.map((r) => [r.task_id, difficulties[r.task_id] ?? '', r.canonical.toFixed(3), r.train.toFixed(3), r.test.toFixed(3)]);
  rows.push(['mean', '', '', '', report.mean_score.toFixed(3)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [`SupportDesk baseline: policy ${report.policy}`, line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
