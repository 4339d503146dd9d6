import { Injectable } from '@nestjs/common';
import { ConflictError } from '../common/errors/domain-errors';
import type { Principal } from '../access/principal';
import type { ComparisonDto } from './dto/comparison.dto';
import { runViewerOf, visibleRun } from './run-access';
import { outcomesOf, RESULT_BOOTSTRAP_SEED, RESULT_RESAMPLES } from './run-results';
import type { CellWithEpisodeRow, RunRow } from './run-statements';
import { RunsRepository } from './runs.repository';
import { comparePaired } from './statistics';

/**
 * Paired comparison of two runs: cells with the same family, seed and trial are paired, so the instance-to-instance
 * spread that two unpaired means carry cancels out. Only runs drawn and graded alike pair up.
 */
@Injectable()
export class RunComparisonService {
  constructor(private readonly runs: RunsRepository) {}

  async compare(principal: Principal, runIdA: string, runIdB: string): Promise<ComparisonDto> {
    const viewer = runViewerOf(principal);
    const a = visibleRun(viewer, await this.runs.find(viewer.tenantId, runIdA), runIdA);
    const b = visibleRun(viewer, await this.runs.find(viewer.tenantId, runIdB), runIdB);
    refuseUnpairable(a, b);
    const cells = await cellsOfRuns(this.runs, [a, b]);
    return compareRuns(a, b, cells);
  }
}

/** Each run's cells with their episodes, by run id: what comparisons pair. */
export async function cellsOfRuns(runs: RunsRepository, of: RunRow[]): Promise<Map<string, CellWithEpisodeRow[]>> {
  const cells = new Map<string, CellWithEpisodeRow[]>();
  for (const run of of) cells.set(run.id, await runs.cellsWithEpisodes(run.tenantId, run.id));
  return cells;
}

/** Two runs' paired comparison (both already visible and pairable), from their cells (cellsOfRuns). */
export function compareRuns(a: RunRow, b: RunRow, cells: Map<string, CellWithEpisodeRow[]>): ComparisonDto {
  const outcomes = (run: RunRow) => outcomesOf(cells.get(run.id) ?? [], run.successMilli);
  const result = comparePaired(outcomes(a), outcomes(b), { resamples: RESULT_RESAMPLES, seed: RESULT_BOOTSTRAP_SEED });
  // No pair, no comparison: "within noise" would read as a finding.
  if (result.overall.pairs === 0) throw new ConflictError(`runs "${a.id}" and "${b.id}" have no finished cell in common yet: nothing to compare`);
  const families = (JSON.parse(a.familiesJson) as string[]).filter((id) => result.families[id] !== undefined);
  return {
    run_a: a.id,
    run_b: b.id,
    unpaired_a: result.unpaired_a,
    unpaired_b: result.unpaired_b,
    overall: result.overall,
    families: families.map((taskId) => ({ task_id: taskId, ...result.families[taskId] })),
    method: result.method,
  };
}

/** What makes two runs' scores incomparable cell by cell: named, so the caller knows which run to redo. */
function refuseUnpairable(a: RunRow, b: RunRow): void {
  const differences: string[] = [];
  if (a.graderVersion !== b.graderVersion) differences.push(`grader version (${a.graderVersion} vs ${b.graderVersion})`);
  const generatorsA = JSON.parse(a.generatorsJson) as Record<string, string>;
  const generatorsB = JSON.parse(b.generatorsJson) as Record<string, string>;
  const shared = Object.keys(generatorsA).filter((id) => id in generatorsB);
  const drifted = shared.filter((id) => generatorsA[id] !== generatorsB[id]);
  if (drifted.length > 0) differences.push(`task versions of ${drifted.join(', ')} (${drifted.map((id) => `${generatorsA[id]} vs ${generatorsB[id]}`).join('; ')})`);
  if (a.split !== b.split) differences.push(`split (${a.split} vs ${b.split})`);
  if (a.feedback !== b.feedback) differences.push(`feedback (${a.feedback} vs ${b.feedback})`);
  if (a.successMilli !== b.successMilli) differences.push(`success threshold (${a.successMilli / 1000} vs ${b.successMilli / 1000})`);
  if (differences.length > 0) throw new ConflictError(`the runs differ in ${differences.join(', ')}: their scores do not pair`);
  const seedsB = new Set(JSON.parse(b.seedsJson) as number[]);
  const sharesSeed = (JSON.parse(a.seedsJson) as number[]).some((seed) => seedsB.has(seed));
  if (shared.length === 0 || !sharesSeed) throw new ConflictError('the runs share no cell (no common family and seed): nothing to pair');
}
