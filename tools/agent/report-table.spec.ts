import { formatRunTable, READER_KEY_HINT } from './report-table';
import type { GroupSummary, Run } from './runs-api';

const interval = (estimate: number, low: number, high: number) => ({ estimate, low, high });

function group(cells: number, mean: number, passes: number[], flip: number | null): GroupSummary {
  return {
    cells,
    seeds: 2,
    mean_score: interval(mean, mean - 0.1, Math.min(1, mean + 0.1)),
    success_rate: interval(passes[0], 0, 1),
    pass_hat_k: passes.map((p, i) => ({ k: i + 1, ...interval(p, Math.max(0, p - 0.2), Math.min(1, p + 0.2)) })),
    flip_rate: flip,
  };
}

const RUN: Run = {
  run_id: 'run_1',
  name: 'nightly',
  agent: 'llm:m',
  model: 'm',
  split: 'test',
  feedback: 'final',
  families: ['billing', 'security'],
  seeds: [0, 5],
  trials: 2,
  success_threshold: 1,
  status: 'complete',
  progress: { cells: 8, pending: 0, active: 0, finished: 8, failed: 0, abandoned: 0 },
  results: {
    success_threshold: 1,
    overall: group(8, 0.8125, [0.75, 0.5], 0.5),
    families: [
      { task_id: 'billing', ...group(4, 1, [1, 1], 0) },
      { task_id: 'security', ...group(4, 0.625, [0.5, 0], 1) },
    ],
    totals: { steps: 40, mean_steps: 5, mean_wall_ms: 800, input_tokens: 12000, output_tokens: 300 },
    method: { resamples: 2000, seed: 1, level: 0.95, estimand: 'the run\'s figures over new seeds', resampling: 'seeds within families' },
  },
  results_withheld: null,
};

describe('formatRunTable', () => {
  it('per family and overall: cells, the mean with its interval, pass^k for every k, the flip rate; then pass^k with intervals', () => {
    expect(formatRunTable(RUN).split('\n')).toEqual([
      'run run_1 (nightly): 2 families × 2 seeds × 2 trials, split test, feedback final',
      'cells: 8/8 finished (complete)',
      'success: a score of at least 1',
      '',
      'family    cells          mean [95%]  pass^1  pass^2  flip rate',
      '--------  -----  ------------------  ------  ------  ---------',
      'billing       4  1.000 [0.90, 1.00]   1.000   1.000      0.000',
      'security      4  0.625 [0.53, 0.72]   0.500   0.000      1.000',
      '--------  -----  ------------------  ------  ------  ---------',
      'overall       8  0.813 [0.71, 0.91]   0.750   0.500      0.500',
      '',
      "overall (95% intervals: the run's figures over new seeds): pass^1 = 0.750 [0.55, 0.95]   pass^2 = 0.500 [0.30, 0.70]",
      'tokens: 12000 in, 300 out',
    ]);
  });

  it('an agent key: the server\'s reason, and how to see the scores, instead of any figure', () => {
    const withheld = { ...RUN, results: null, results_withheld: 'an agent key is never shown the scores of a run' };
    const table = formatRunTable(withheld);
    expect(table).toContain(`scores withheld: an agent key is never shown the scores of a run; ${READER_KEY_HINT}`);
    expect(table).not.toMatch(/pass\^|\d\.\d{3}/);
  });

  it('a run not complete says how far it got, and that the figures are the finished cells\' so far', () => {
    const partial = { ...RUN, status: 'open' as const, progress: { cells: 8, pending: 3, active: 0, finished: 4, failed: 1, abandoned: 0 } };
    const table = formatRunTable(partial);
    expect(table).toContain('cells: 4/8 finished; 3 pending, 1 failed');
    expect(table).toContain('success: a score of at least 1; figures over the finished cells so far');
  });

  it('says n/a where there is nothing to estimate from, and when no tokens were reported', () => {
    const empty = group(0, 0, [0], null);
    const nothing = { ...empty, mean_score: { estimate: null, low: null, high: null }, pass_hat_k: [{ k: 1, estimate: null, low: null, high: null }] };
    const run: Run = {
      ...RUN,
      trials: 1,
      results: { ...RUN.results!, overall: nothing, families: [{ task_id: 'billing', ...nothing }], totals: { ...RUN.results!.totals, input_tokens: null, output_tokens: null } },
    };
    const table = formatRunTable(run);
    expect(table).toMatch(/^billing\s+0\s+n\/a\s+n\/a\s+n\/a$/m);
    expect(table).toContain('pass^1 = n/a');
    expect(table).toContain('tokens: not reported');
  });
});
