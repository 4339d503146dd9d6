import { compareCodeUnits } from './code-unit-order';
import { groupCells, type FamilyCells } from './group-cells';
import type { CellOutcome } from './types';

/** The pairs of one seed: the trials run in both A and B. */
export interface SeedPairs {
  seed: number;
  scoresA: number[];
  scoresB: number[];
}

export interface FamilyPairs {
  family: string;
  /** Seeds with at least one pair, ordered by seed. */
  seeds: SeedPairs[];
}

export interface PairedCells {
  /** Every family present in either run, by name; a family may have no seed with a pair. */
  families: FamilyPairs[];
  unpairedA: number;
  unpairedB: number;
}

/**
 * Matches the cells of two runs on (family, seed, trial). A cell present in one run only cannot be compared
 * without confounding the agents with the instances they drew, so it is left out and counted.
 */
export function pairCells(a: readonly CellOutcome[], b: readonly CellOutcome[]): PairedCells {
  const familiesA = indexByFamily(groupCells(a));
  const familiesB = indexByFamily(groupCells(b));
  const names = [...new Set([...familiesA.keys(), ...familiesB.keys()])].sort(compareCodeUnits);
  let pairs = 0;
  const families = names.map((family) => {
    const seedsB = new Map(familiesB.get(family)?.seeds.map((seed) => [seed.seed, seed.cells]));
    const seeds: SeedPairs[] = [];
    for (const { seed, cells } of familiesA.get(family)?.seeds ?? []) {
      const trialsB = new Map(seedsB.get(seed)?.map((cell) => [cell.trial, cell]));
      const scoresA: number[] = [];
      const scoresB: number[] = [];
      for (const cellA of cells) {
        const cellB = trialsB.get(cellA.trial);
        if (!cellB) continue;
        scoresA.push(cellA.score);
        scoresB.push(cellB.score);
      }
      if (scoresA.length > 0) seeds.push({ seed, scoresA, scoresB });
      pairs += scoresA.length;
    }
    return { family, seeds };
  });
  return { families, unpairedA: a.length - pairs, unpairedB: b.length - pairs };
}

function indexByFamily(families: FamilyCells[]): Map<string, FamilyCells> {
  return new Map(families.map((family) => [family.family, family]));
}
