import type { GroupSummary, Interval, Run } from './runs-api';

/** What follows the server's reason when the results are withheld from the key that read them. */
export const READER_KEY_HINT = 'give --reader-key (or SUPPORTDESK_READER_KEY) a reader key of the same tenant to see them';

/**
 * The run's table, from GET /runs/{run_id} as read at the end: per family the cells counted, the mean score with its
 * interval, pass^k for k = 1…trials and the flip rate; the same over the whole run; then pass^k with its interval
 * for every k. A run read by a key that is not shown its results (an agent key) says why instead of any figure.
 * Over a run not yet complete (interrupted, stopped) the figures are the finished cells' so far, and say so.
 */
export function formatRunTable(run: Run): string {
  const head = [
    `run ${run.run_id} (${run.name}): ${run.families.length} ${plural(run.families.length, 'family', 'families')} × ${run.seeds.length} ${plural(run.seeds.length, 'seed')} × ${run.trials} ${plural(run.trials, 'trial')}, split ${run.split}, feedback ${run.feedback}`,
    `cells: ${run.progress.finished}/${run.progress.cells} finished${run.status === 'complete' ? ' (complete)' : `; ${describeOpen(run)}`}`,
  ];
  const results = run.results;
  if (!results) {
    return [...head, `scores withheld: ${run.results_withheld ?? 'this key is not shown the results'}; ${READER_KEY_HINT}`].join('\n');
  }
  const ks = results.overall.pass_hat_k.map((p) => p.k);
  const level = `${Math.round(results.method.level * 100)}%`;
  const header = ['family', 'cells', `mean [${level}]`, ...ks.map((k) => `pass^${k}`), 'flip rate'];
  const row = (name: string, group: GroupSummary) => [
    name,
    String(group.cells),
    withInterval(group.mean_score),
    ...ks.map((k) => figure(group.pass_hat_k.find((p) => p.k === k)?.estimate ?? null)),
    figure(group.flip_rate),
  ];
  const rows = [...results.families.map((family) => row(family.task_id, family)), row('overall', results.overall)];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  const rule = line(widths.map((w) => '-'.repeat(w)));
  const passes = results.overall.pass_hat_k.map((p) => `pass^${p.k} = ${withInterval(p)}`).join('   ');
  const tokens =
    results.totals.input_tokens === null && results.totals.output_tokens === null
      ? 'tokens: not reported'
      : `tokens: ${results.totals.input_tokens ?? 0} in, ${results.totals.output_tokens ?? 0} out`;
  return [
    ...head,
    `success: a score of at least ${results.success_threshold}${run.status === 'complete' ? '' : '; figures over the finished cells so far'}`,
    '',
    line(header),
    rule,
    ...rows.slice(0, -1).map(line),
    rule,
    line(rows[rows.length - 1]),
    '',
    `overall (${level} intervals: ${results.method.estimand}): ${passes}`,
    tokens,
  ].join('\n');
}

function describeOpen(run: Run): string {
  const { pending, active, failed, abandoned } = run.progress;
  const parts = [`${pending} pending`];
  if (active) parts.push(`${active} active`);
  if (failed) parts.push(`${failed} failed`);
  if (abandoned) parts.push(`${abandoned} abandoned`);
  return parts.join(', ');
}

function withInterval(interval: Interval): string {
  if (interval.estimate === null) return 'n/a';
  const bounds = interval.low === null || interval.high === null ? '' : ` [${interval.low.toFixed(2)}, ${interval.high.toFixed(2)}]`;
  return `${interval.estimate.toFixed(3)}${bounds}`;
}

function figure(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(3);
}

function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}
