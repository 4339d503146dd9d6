import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { InvalidFieldError, NotFoundError } from '../common/errors/domain-errors';
import type { Principal } from '../access/principal';
import type { Action } from '../engine/actions';
import { reset, step } from '../engine/engine';
import { grade } from '../engine/grader';
import { CURRENT_GRADER_VERSION, graderModule } from '../engine/graders';
import type { GraderVersion } from '../engine/grader-version';
import type { Task } from '../engine/task.schema';
import { TaskCatalog } from '../tasks/task-catalog.service';
import type { RegradeDto, RegradedEpisodeDto, RegradeRequestDto } from './dto/regrade.dto';
import { runViewerOf, visibleRun } from './run-access';
import { isoTime } from './run.presenter';
import { RESULT_BOOTSTRAP_SEED, RESULT_RESAMPLES } from './run-results';
import type { CellWithEpisodeRow, RegradeResultRow, RunRow } from './run-statements';
import { RunsRepository, type NewRegradeResult } from './runs.repository';
import { summarizeRun } from './statistics';

/** Episodes replayed between two yields to the event loop, so a large regrade never stalls other requests. */
const EPISODES_PER_TURN = 20;

const COMPONENT_COLUMNS = {
  opened_target: 'openedMilli',
  policy_consulted: 'policyMilli',
  priority: 'priorityMilli',
  routing: 'routingMilli',
  reply_coverage: 'replyMilli',
  resolution: 'resolutionMilli',
} as const;

type ComponentPoints = { name: string; before: number; after: number };

/**
 * Regrades: every finished cell's episode replayed from its logged actions on the same instance (drawn again from its
 * task version and seed) under another grader version, stored as a new result linked to the run. The run's own
 * scores are never touched; the regrade lists the episodes whose score or success changed.
 */
@Injectable()
export class RegradeService {
  constructor(
    private readonly runs: RunsRepository,
    private readonly catalog: TaskCatalog,
    private readonly clock: Clock,
  ) {}

  async regrade(principal: Principal, runId: string, request: RegradeRequestDto): Promise<RegradeDto> {
    const viewer = runViewerOf(principal);
    const run = visibleRun(viewer, await this.runs.find(viewer.tenantId, runId), runId);
    const graderVersion = request.grader_version ?? CURRENT_GRADER_VERSION;
    const versions = JSON.parse(run.generatorsJson) as Record<string, string>;
    // A cell whose episode retention purged keeps its score, but has no log to replay: it is left out.
    const cells = (await this.runs.cellsWithEpisodes(viewer.tenantId, run.id)).filter((cell) => cell.status === 'finished' && cell.episodeId !== null && cell.steps !== null);
    const results: NewRegradeResult[] = [];
    for (let i = 0; i < cells.length; i++) {
      if (i > 0 && i % EPISODES_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      const cell = cells[i];
      const task = await this.catalog.fetchInstance(cell.taskId, versions[cell.taskId], cell.seed, null);
      results.push(this.regradeCell(cell, task, graderVersion, await this.runs.actionsOf(viewer.tenantId, cell.episodeId!)));
    }
    const id = `rg_${randomBytes(12).toString('hex')}`;
    await this.runs.saveRegrade(viewer.tenantId, { id, runId: run.id, graderVersion, createdAt: this.clock.now() }, results);
    return this.get(principal, run.id, id);
  }

  async get(principal: Principal, runId: string, regradeId: string): Promise<RegradeDto> {
    const viewer = runViewerOf(principal);
    const run = visibleRun(viewer, await this.runs.find(viewer.tenantId, runId), runId);
    const found = await this.runs.findRegrade(viewer.tenantId, run.id, regradeId);
    if (found === null) throw new NotFoundError(`no regrade "${regradeId}" of run "${run.id}"`);
    const { regrade, results } = found;
    const outcomes = results.map((r) => ({ family: r.taskId, seed: r.seed, trial: r.trial, score: r.scoreMilli / 1000, success: r.scoreMilli >= run.successMilli }));
    const summary = summarizeRun(outcomes, { maxK: run.trials, resamples: RESULT_RESAMPLES, seed: RESULT_BOOTSTRAP_SEED });
    return {
      regrade_id: regrade.id,
      run_id: run.id,
      grader_version_before: run.graderVersion,
      grader_version: regrade.graderVersion,
      created_at: isoTime(regrade.createdAt),
      episodes: regrade.episodeCount,
      changed: regrade.changedCount,
      overall: summary.overall,
      changed_episodes: results.filter((r) => r.changed === 1).map((r) => presentChange(r, run)),
    };
  }

  /** One finished cell's episode replayed under `graderVersion`: its score and components then and now. */
  private regradeCell(cell: CellWithEpisodeRow, task: Task, graderVersion: GraderVersion, actionJsons: string[]): NewRegradeResult {
    if (!graderModule(graderVersion).grades(task)) {
      throw new InvalidFieldError('grader_version', `grader version ${graderVersion} cannot grade task ${task.id} as this run draws it`);
    }
    let state = reset(task, cell.seed, graderVersion);
    for (const actionJson of actionJsons) {
      if (state.done) break;
      state = step(task, state, JSON.parse(actionJson) as Action).state;
    }
    const breakdown = grade(task, state);
    const components: ComponentPoints[] = breakdown.components.map((c) => ({
      name: c.name,
      before: (cell[COMPONENT_COLUMNS[c.name]] ?? 0) / 1000,
      after: c.earned_milli / 1000,
    }));
    return {
      taskId: cell.taskId,
      seed: cell.seed,
      trial: cell.trial,
      episodeId: cell.episodeId!,
      scoreMilli: breakdown.score_milli,
      beforeMilli: cell.scoreMilli!,
      changed: breakdown.score_milli !== cell.scoreMilli,
      componentsJson: JSON.stringify(components),
    };
  }
}

function presentChange(result: RegradeResultRow, run: RunRow): RegradedEpisodeDto {
  const components = JSON.parse(result.componentsJson) as ComponentPoints[];
  return {
    episode_id: result.episodeId,
    task_id: result.taskId,
    seed: result.seed,
    trial: result.trial,
    score_before: result.beforeMilli / 1000,
    score_after: result.scoreMilli / 1000,
    success_before: result.beforeMilli >= run.successMilli,
    success_after: result.scoreMilli >= run.successMilli,
    components: components.filter((c) => c.before !== c.after),
  };
}
