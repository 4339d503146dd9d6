import type { ScoreBucket } from './audit.repository';

export interface GroupStats {
  taskId: string;
  agent: string | null;
  count: number;
  completed: number;
  successes: number;
  meanMilli: number;
  medianMilli: number;
  componentMeansMilli: ScoreBucket['componentSumsMilli'];
}

/**
 * Folds score-histogram buckets (in any order; a group may have several buckets of one score, from different
 * tenants or agents) into per-group statistics, groups sorted by task then agent. Exact: the median is
 * the middle score (the mean of the two middle ones for an even count), found by walking cumulative counts.
 */
export function summarizeHistogram(buckets: ScoreBucket[], thresholdMilli: number): GroupStats[] {
  const groups = new Map<string, ScoreBucket[]>();
  for (const bucket of buckets) {
    const key = JSON.stringify([bucket.taskId, bucket.agent]);
    const group = groups.get(key);
    if (group) group.push(bucket);
    else groups.set(key, [bucket]);
  }
  for (const group of groups.values()) group.sort((a, b) => a.scoreMilli - b.scoreMilli);
  const ordered = [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
  return ordered.map((group) => {
    const count = group.reduce((n, b) => n + b.count, 0);
    const sums = Object.fromEntries(Object.keys(group[0].componentSumsMilli).map((k) => [k, 0])) as ScoreBucket['componentSumsMilli'];
    for (const bucket of group) {
      for (const name of Object.keys(sums) as (keyof typeof sums)[]) sums[name] += bucket.componentSumsMilli[name];
    }
    return {
      taskId: group[0].taskId,
      agent: group[0].agent,
      count,
      completed: group.reduce((n, b) => n + b.completed, 0),
      successes: group.filter((b) => b.scoreMilli >= thresholdMilli).reduce((n, b) => n + b.count, 0),
      meanMilli: group.reduce((sum, b) => sum + b.scoreMilli * b.count, 0) / count,
      medianMilli: (nthScore(group, Math.floor((count - 1) / 2)) + nthScore(group, Math.floor(count / 2))) / 2,
      componentMeansMilli: Object.fromEntries(
        Object.entries(sums).map(([name, sum]) => [name, sum / count]),
      ) as ScoreBucket['componentSumsMilli'],
    };
  });
}

/** The score at 0-based position `n` in ascending order. */
function nthScore(sortedBuckets: ScoreBucket[], n: number): number {
  let seen = 0;
  for (const bucket of sortedBuckets) {
    seen += bucket.count;
    if (n < seen) return bucket.scoreMilli;
  }
  throw new Error(`position ${n} is past the ${seen} episodes of the group`);
}
