import { compareCodeUnits } from './code-unit-order';
import type { CellOutcome } from './types';

export interface SeedCells {
  seed: number;
  /** Ordered by trial. */
  cells: CellOutcome[];
}

export interface FamilyCells {
  family: string;
  /** Ordered by seed. */
  seeds: SeedCells[];
}

/**
 * A run's cells by family, then seed, in a fixed order (families by name, seeds and trials by number) whatever
 * the order they came in: the bootstrap draws by position, so the same cells must always line up the same way.
 * Rejects what would make a figure wrong rather than merely missing: a score outside [0, 1] and a cell given twice.
 */
export function groupCells(cells: readonly CellOutcome[]): FamilyCells[] {
  const byFamily = new Map<string, Map<number, Map<number, CellOutcome>>>();
  for (const cell of cells) {
    assertValidCell(cell);
    let bySeed = byFamily.get(cell.family);
    if (!bySeed) byFamily.set(cell.family, (bySeed = new Map()));
    let byTrial = bySeed.get(cell.seed);
    if (!byTrial) bySeed.set(cell.seed, (byTrial = new Map()));
    if (byTrial.has(cell.trial)) {
      throw new RangeError(`cell (${cell.family}, seed ${cell.seed}, trial ${cell.trial}) is given twice`);
    }
    byTrial.set(cell.trial, cell);
  }
  return [...byFamily.entries()]
    .sort(([a], [b]) => compareCodeUnits(a, b))
    .map(([family, bySeed]) => ({
      family,
      seeds: [...bySeed.entries()]
        .sort(([a], [b]) => a - b)
        .map(([seed, byTrial]) => ({ seed, cells: [...byTrial.values()].sort((a, b) => a.trial - b.trial) })),
    }));
}

function assertValidCell(cell: CellOutcome): void {
  const where = `cell (${cell.family}, seed ${cell.seed}, trial ${cell.trial})`;
  if (typeof cell.family !== 'string') throw new RangeError(`${where}: family must be a string`);
  if (!Number.isSafeInteger(cell.seed)) throw new RangeError(`${where}: seed must be an integer`);
  if (!Number.isSafeInteger(cell.trial) || cell.trial < 0) {
    throw new RangeError(`${where}: trial must be a non-negative integer`);
  }
  if (!(cell.score >= 0 && cell.score <= 1)) throw new RangeError(`${where}: score must be in [0, 1], got ${cell.score}`);
  if (typeof cell.success !== 'boolean') throw new RangeError(`${where}: success must be a boolean`);
}
