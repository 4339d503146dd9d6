/**
 * Quantiles of an unsorted sample by selection rather than sorting: a run summary takes two quantiles from each
 * of about a hundred sets of 2,000 resampled estimates, and selection is linear where a sort is n log n.
 */
export class OrderStatistics {
  private readonly values: Float64Array;

  /** Copies the sample: selection reorders it. */
  constructor(sample: Float64Array) {
    this.values = new Float64Array(sample);
  }

  /** The quantile with linear interpolation between order statistics (Hyndman & Fan type 7, R's and NumPy's default). */
  quantile(probability: number): number {
    const position = (this.values.length - 1) * probability;
    const below = Math.floor(position);
    const lower = this.select(below);
    if (below + 1 >= this.values.length || position === below) return lower;
    // After selecting rank `below`, everything right of it is at least as large: the next order statistic is its minimum.
    let upper = Number.POSITIVE_INFINITY;
    for (let i = below + 1; i < this.values.length; i++) if (this.values[i] < upper) upper = this.values[i];
    return lower + (position - below) * (upper - lower);
  }

  /** Hoare's quickselect: puts the value of the given rank at its index, smaller ones left, larger ones right. */
  private select(rank: number): number {
    const values = this.values;
    let left = 0;
    let right = values.length - 1;
    while (left < right) {
      const pivot = medianOfThree(values[left], values[(left + right) >>> 1], values[right]);
      let i = left;
      let j = right;
      while (i <= j) {
        while (values[i] < pivot) i++;
        while (values[j] > pivot) j--;
        if (i <= j) {
          const swap = values[i];
          values[i] = values[j];
          values[j] = swap;
          i++;
          j--;
        }
      }
      if (rank <= j) right = j;
      else if (rank >= i) left = i;
      else break;
    }
    return values[rank];
  }
}

function medianOfThree(a: number, b: number, c: number): number {
  if (a < b) return b < c ? b : a < c ? c : a;
  return a < c ? a : b < c ? c : b;
}
