import type { BaselineResponseDto } from './dto/baseline.dto';

/**
 * A fixed-width table of the baseline run: the same input always prints the same bytes. Test-split figures withheld
 * from an agent key print as "withheld", with a line saying how to read them.
 */
export function formatBaselineTable(report: BaselineResponseDto, difficulties: Record<string, string>): string {
  const n = report.seeds_per_split;
  const header = ['task', 'difficulty', 'canonical', `train (${n} seeds)`, `test (${n} seeds)`];
  const rows = report.results.map((r) => [r.task_id, difficulties[r.task_id] ?? '', r.canonical.toFixed(3), r.train.toFixed(3), figure(r.test)]);
  rows.push(['mean', '', '', '', figure(report.mean_score)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const table = [`SupportDesk baseline: policy ${report.policy}`, line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  if (report.mean_score === null) table.push(TEST_SCORES_WITHHELD);
  return table.join('\n');
}

/** What a table says under test-split figures an agent key was not given. */
export const TEST_SCORES_WITHHELD = 'test-split scores withheld: an agent key is never shown them; a reader key of the same tenant reads them';

function figure(value: number | null): string {
  return value === null ? 'withheld' : value.toFixed(3);
}
