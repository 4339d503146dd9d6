import type { AgentRunReport } from './agent-runner';
import { WITHHELD } from './eval-log';

/** What the table says under scores the server withheld from the agent key. */
export const SCORES_WITHHELD_NOTE =
  'test-split scores are withheld from an agent key: set SUPPORTDESK_READER_KEY to a reader key of the same tenant to report them';

/**
 * Per-task scores over trials, and pass^k for every k up to the number of trials. Scores withheld from the agent key
 * (and not read with a reader key) are shown as `withheld`, as is every figure made from them.
 */
export function formatAgentReport(report: AgentRunReport, threshold: number): string {
  const rows = report.tasks.map((t) => {
    const known = t.scores.filter((s): s is number => s !== null);
    const complete = known.length === t.scores.length;
    return [
      t.taskId,
      String(t.scores.length),
      complete ? (known.reduce((a, b) => a + b, 0) / known.length).toFixed(3) : WITHHELD,
      t.successes === null ? WITHHELD : `${t.successes}/${t.scores.length}`,
      t.scores.map((s) => (s === null ? WITHHELD : s.toFixed(2))).join(' '),
    ];
  });
  const header = ['task', 'trials', 'mean', `score>=${threshold}`, 'scores'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const figure = (value: number | null) => (value === null ? WITHHELD : Number.isNaN(value) ? 'n/a' : value.toFixed(3));
  const passes = report.passHatK.map((p) => `pass^${p.k}=${figure(p.value)}`).join('  ');
  const table = [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), passes];
  if (report.withheld) table.push(SCORES_WITHHELD_NOTE);
  return table.join('\n');
}
