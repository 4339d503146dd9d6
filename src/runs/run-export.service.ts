import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { APP_VERSION } from '../common/app-version';
import { grade } from '../engine/grader';
import { presentActionLog, presentComponents, presentPenalties, stateOf, toPoints } from '../episodes';
import { TaskCatalog } from '../tasks/task-catalog.service';
import type { ExportFormat } from './dto/run-queries.dto';
import { CSV_COLUMNS, type ExportedRunEpisodeDto } from './dto/run-export.dto';
import type { Termination } from './dto/run.dto';
import { inspectEvalArchive } from './export/inspect';
import type { InspectSampleInput } from './export/inspect/inspect-export-input';
import { runViewerOf, visibleRun, type RunViewer } from './run-access';
import { isoTime, presentRun, presentProgress } from './run.presenter';
import type { CellWithEpisodeRow, RunRow } from './run-statements';
import { RunsRepository } from './runs.repository';
import { RunsService } from './runs.service';

export interface RunExport {
  chunks: AsyncIterable<string | Uint8Array>;
  contentType: string;
  fileName: string;
}

/**
 * A run's exports, streamed cell by cell in hand-out order: nothing holds the whole run in memory, and a slow reader
 * holds back the producer. The run and the caller's right to it are checked before the first byte.
 */
@Injectable()
export class RunExportService {
  constructor(
    private readonly runs: RunsRepository,
    private readonly service: RunsService,
    private readonly catalog: TaskCatalog,
  ) {}

  async export(principal: Principal, runId: string, format: ExportFormat): Promise<RunExport> {
    const viewer = runViewerOf(principal);
    const run = visibleRun(viewer, await this.runs.find(viewer.tenantId, runId), runId);
    const cells = await this.runs.cellsWithEpisodes(viewer.tenantId, run.id);
    if (format === 'csv') return { chunks: csvLines(run, cells), contentType: 'text/csv; charset=utf-8', fileName: `${run.id}.csv` };
    if (format === 'inspect') return { chunks: await this.inspectArchive(viewer, run, cells), contentType: 'application/zip', fileName: `${run.id}.eval` };
    return { chunks: this.jsonLines(viewer, run, cells), contentType: 'application/x-ndjson; charset=utf-8', fileName: `${run.id}.jsonl` };
  }

  private async *jsonLines(viewer: RunViewer, run: RunRow, cells: CellWithEpisodeRow[]): AsyncGenerator<string> {
    for (const cell of cells) {
      const line = await this.episodeLine(viewer, run, cell);
      if (line) yield `${JSON.stringify(line)}\n`;
    }
  }

  /** A finished cell's counted episode with its grade and trajectory; null for a cell not finished. */
  private async episodeLine(viewer: RunViewer, run: RunRow, cell: CellWithEpisodeRow): Promise<ExportedRunEpisodeDto | null> {
    if (cell.status !== 'finished' || cell.episodeId === null || cell.scoreMilli === null) return null;
    const stored = await this.runs.episodeForExport(viewer.tenantId, cell.episodeId);
    if (stored === null) return null;
    const task = await this.catalog.fetchInstance(cell.taskId, stored.taskVersion, cell.seed, null);
    const actionLog = await this.runs.actionLogOf(viewer.tenantId, cell.episodeId);
    const breakdown = grade(task, stateOf(task, stored, () => actionLog.map((entry) => entry.actionJson)));
    return {
      run_id: run.id,
      task_id: cell.taskId,
      seed: cell.seed,
      trial: cell.trial,
      episode_id: cell.episodeId,
      task_version: stored.taskVersion,
      grader_version: stored.graderVersion,
      termination: cell.termination as Termination,
      score: toPoints(cell.scoreMilli),
      success: cell.scoreMilli >= run.successMilli,
      wall_ms: cell.wallMs,
      input_tokens: cell.inputTokens,
      output_tokens: cell.outputTokens,
      components: presentComponents(breakdown),
      penalties: presentPenalties(breakdown),
      actions: presentActionLog(actionLog),
    };
  }

  private async inspectArchive(viewer: RunViewer, run: RunRow, cells: CellWithEpisodeRow[]): Promise<AsyncIterable<Uint8Array>> {
    const progress = presentProgress(run.cellCount, await this.runs.cellCounts(viewer.tenantId, run.id));
    const summary = presentRun(run, progress, await this.service.resultsOf(viewer, run), null);
    const results = summary.results!;
    const samples = async function* (this: RunExportService): AsyncGenerator<InspectSampleInput> {
      for (const cell of cells) {
        const line = await this.episodeLine(viewer, run, cell);
        if (!line) continue;
        const instruction = (await this.catalog.fetchInstance(cell.taskId, line.task_version, cell.seed, null)).instruction;
        yield {
          task_id: line.task_id,
          seed: line.seed,
          trial: line.trial,
          episode_id: line.episode_id,
          instruction,
          termination: line.termination,
          score: line.score,
          success: line.success,
          components: Object.fromEntries(line.components.map((c) => [c.name, c.earned])),
          penalties: line.penalties.map((p) => ({ code: p.id, points: p.penalty })),
          steps: line.actions.map((a) => ({ index: a.step, action: a.action as unknown as Record<string, unknown>, reward: a.reward, outcome: a.outcome, error: a.error, at: a.created_at })),
          started_at: line.actions[0]?.created_at ?? summary.created_at,
          finished_at: line.actions[line.actions.length - 1]?.created_at ?? null,
          wall_ms: line.wall_ms,
          input_tokens: line.input_tokens,
          output_tokens: line.output_tokens,
        };
      }
    }.call(this);
    return inspectEvalArchive({
      run: {
        run_id: run.id,
        name: run.name,
        agent: run.agent,
        model: run.model,
        split: run.split,
        feedback: run.feedback,
        families: summary.families,
        seeds: summary.seeds,
        trials: run.trials,
        config_hash: run.configHash,
        grader_version: run.graderVersion,
        generator_versions: summary.versions.generators,
        created_at: summary.created_at,
        completed_at: summary.completed_at,
        status: summary.status,
        metadata: summary.metadata,
        success_threshold: summary.success_threshold,
        server_version: APP_VERSION,
      },
      results: {
        mean_score: results.overall.mean_score.estimate,
        success_rate: results.overall.success_rate.estimate,
        pass_hat_k: results.overall.pass_hat_k.map((p) => ({ k: p.k, estimate: p.estimate })),
        cells_total: summary.progress.cells,
        cells_finished: summary.progress.finished,
      },
      samples,
    }) as AsyncIterable<Uint8Array>;
  }
}

/** One CSV line per cell, values escaped as RFC 4180 asks (every value here is an id, a number or empty). */
async function* csvLines(run: RunRow, cells: CellWithEpisodeRow[]): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(',')}\r\n`;
  for (const cell of cells) {
    const values: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null> = {
      run_id: run.id,
      task_id: cell.taskId,
      seed: cell.seed,
      trial: cell.trial,
      status: cell.status,
      episode_id: cell.episodeId,
      attempts: cell.attempts,
      termination: cell.termination,
      score: cell.scoreMilli === null ? null : toPoints(cell.scoreMilli),
      success: cell.scoreMilli === null ? null : cell.scoreMilli >= run.successMilli,
      steps: cell.status === 'finished' ? cell.steps : null,
      wall_ms: cell.wallMs,
      input_tokens: cell.inputTokens,
      output_tokens: cell.outputTokens,
    };
    yield `${CSV_COLUMNS.map((column) => csvValue(values[column])).join(',')}\r\n`;
  }
}

function csvValue(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
