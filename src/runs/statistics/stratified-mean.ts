import type { Stratum } from './stratum';

export interface StratifiedMeans {
  /** [statistic][family]: the mean over the family's counted seeds; null where it has none. */
  families: Array<Array<number | null>>;
  /** [statistic]: the mean over the families that have a value, each weighing the same; null if none has. */
  overall: Array<number | null>;
}

/**
 * The point estimates: a family's figure is the mean of its seeds' values, the run's the mean of its families'.
 * Families weigh the same whatever their number of seeds, because the estimand is a mean over the families.
 */
export function stratifiedMeans(strata: readonly Stratum[], statistics: number): StratifiedMeans {
  const families: Array<Array<number | null>> = [];
  const overall: Array<number | null> = [];
  for (let statistic = 0; statistic < statistics; statistic++) {
    const perFamily = strata.map((stratum) => {
      const column = stratum[statistic];
      return column ? mean(column.values) : null;
    });
    families.push(perFamily);
    overall.push(meanOfPresent(perFamily));
  }
  return { families, overall };
}

export function mean(values: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i];
  return sum / values.length;
}

export function meanOfPresent(values: ReadonlyArray<number | null>): number | null {
  let sum = 0;
  let count = 0;
  for (const value of values) {
    if (value === null) continue;
    sum += value;
    count++;
  }
  return count === 0 ? null : sum / count;
}
