import type { AgentRunReport } from './agent-runner';

/** Per-task scores over trials, and pass^k for every k up to the number of trials. */
export function formatAgentReport(report: AgentRunReport, threshold: number): string {
  const rows = report.tasks.map((t) => [
    t.taskId,
    String(t.scores.length),
    (t.scores.reduce((a, b) => a + b, 0) / t.scores.length).toFixed(3),
    `${t.successes}/${t.scores.length}`,
    t.scores.map((s) => s.toFixed(2)).join(' '),
  ]);
  const header = ['task', 'trials', 'mean', `score>=${threshold}`, 'scores'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const passes = report.passHatK.map((p) => `pass^${p.k}=${Number.isNaN(p.value) ? 'n/a' : p.value.toFixed(3)}`).join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), passes].join('\n');
}
