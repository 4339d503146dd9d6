import { Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { canonicalJson } from '../common/canonical-json';
import { ConflictError, InvalidFieldError, NotFoundError, ValidationFailedError } from '../common/errors/domain-errors';
import type { Principal } from '../access/principal';
import { EpisodesService } from '../episodes';
import { TaskCatalog } from '../tasks/task-catalog.service';
import { decodeRunCursor, encodeRunCursor } from '../audit/episode-cursor';
import type { CreateRunRequestDto } from './dto/create-run.dto';
import type { CellReportRequestDto } from './dto/cell-report.dto';
import type { CellDto, CellPageDto, RunDto, RunPageDto, RunResultsDto } from './dto/run.dto';
import { DEFAULT_PAGE_SIZE, type ListCellsQueryDto, type ListRunsQueryDto } from './dto/run-queries.dto';
import { RESULTS_WITHHELD, runViewerOf, visibleRun, type RunViewer } from './run-access';
import { cellsOf, configHash, newRunId, resolveRunConfig } from './run-config';
import { presentCell, presentProgress, presentRun } from './run.presenter';
import { runResults } from './run-results';
import { RunResultsCache } from './run-results-cache';
import type { RunRow } from './run-statements';
import { RunsRepository } from './runs.repository';

/** How long an open run's results are served from memory: at most this stale, while the run fills. */
export const OPEN_RESULTS_MS = 2000;

/** The most bytes of metadata a run keeps (as canonical JSON). */
const MAX_METADATA_BYTES = 8192;

/** Creating runs, reading them (progress, and for readers results), their cells, and the agent's reports. */
@Injectable()
export class RunsService {
  constructor(
    private readonly runs: RunsRepository,
    private readonly catalog: TaskCatalog,
    private readonly episodes: EpisodesService,
    private readonly results: RunResultsCache,
    private readonly clock: Clock,
  ) {}

  async create(principal: Principal, request: CreateRunRequestDto): Promise<RunDto> {
    const viewer = runViewerOf(principal);
    const config = resolveRunConfig(request, this.catalog);
    const metadataJson = canonicalJson(request.metadata ?? {});
    if (Buffer.byteLength(metadataJson, 'utf8') > MAX_METADATA_BYTES) {
      throw new InvalidFieldError('metadata', `metadata must be at most ${MAX_METADATA_BYTES} bytes as JSON`);
    }
    const cells = cellsOf(config);
    const id = newRunId();
    await this.runs.create(
      {
        id,
        tenantId: viewer.tenantId,
        apiKeyId: viewer.keyId,
        name: request.name,
        agent: request.agent,
        model: request.model ?? null,
        split: config.split,
        feedback: config.feedback,
        familiesJson: JSON.stringify(config.families),
        seedsJson: JSON.stringify(config.seeds),
        trials: config.trials,
        successMilli: config.successMilli,
        metadataJson,
        configHash: configHash(config),
        graderVersion: config.graderVersion,
        generatorsJson: canonicalJson(config.versions),
        cellCount: cells.length,
        createdAt: this.clock.now(),
      },
      cells,
    );
    return this.get(principal, id);
  }

  async list(principal: Principal, query: ListRunsQueryDto): Promise<RunPageDto> {
    const viewer = runViewerOf(principal);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const cursor = query.cursor === undefined ? null : decodeRunCursor(query.cursor);
    const filters = { apiKeyId: viewer.seesWholeTenant ? null : viewer.keyId, agent: query.agent ?? null, status: query.status ?? null, split: query.split ?? null };
    const rows = await this.runs.list(viewer.tenantId, filters, cursor === null ? null : { at: cursor.createdAt, id: cursor.id }, limit + 1);
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    const runs: RunDto[] = [];
    for (const run of page) {
      runs.push(presentRun(run, presentProgress(run.cellCount, await this.runs.cellCounts(viewer.tenantId, run.id)), null, viewer.seesScores ? null : RESULTS_WITHHELD));
    }
    return {
      runs,
      next_cursor: rows.length > limit ? encodeRunCursor({ createdAt: new Date(last.createdAt), id: last.id }) : null,
    };
  }

  async get(principal: Principal, runId: string): Promise<RunDto> {
    const viewer = runViewerOf(principal);
    const run = visibleRun(viewer, await this.runs.find(viewer.tenantId, runId), runId);
    const progress = presentProgress(run.cellCount, await this.runs.cellCounts(viewer.tenantId, run.id));
    if (!viewer.seesScores) return presentRun(run, progress, null, RESULTS_WITHHELD);
    return presentRun(run, progress, await this.resultsOf(viewer, run), null);
  }

  /**
   * A run's results. A complete run's never change, so they are computed once and kept; an open run's are kept for
   * OPEN_RESULTS_MS, so readers polling a large run's progress cost one computation per interval, not one each.
   */
  resultsOf(viewer: RunViewer, run: RunRow): Promise<RunResultsDto> {
    const compute = async () =>
      runResults({
        families: JSON.parse(run.familiesJson) as string[],
        trials: run.trials,
        successMilli: run.successMilli,
        cells: await this.runs.cellsWithEpisodes(viewer.tenantId, run.id),
      });
    if (run.status === 'complete') return this.results.get(viewer.tenantId, run.id, compute);
    return this.results.get(viewer.tenantId, `${run.id}@${Math.floor(this.clock.now().getTime() / OPEN_RESULTS_MS)}`, compute);
  }

  async cells(principal: Principal, runId: string, query: ListCellsQueryDto): Promise<CellPageDto> {
    const viewer = runViewerOf(principal);
    const run = visibleRun(viewer, await this.runs.find(viewer.tenantId, runId), runId);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const after = query.cursor === undefined ? -1 : decodePosition(query.cursor);
    const rows = await this.runs.cells(viewer.tenantId, run.id, query.status ?? null, after, limit + 1);
    const page = rows.slice(0, limit);
    return {
      cells: page.map((cell) => presentCell(cell, viewer.seesScores)),
      next_cursor: rows.length > limit ? encodePosition(page[page.length - 1].position) : null,
    };
  }

  /**
   * The agent's report on one of its run episodes: token use (added to the cell's), and whether the attempt failed
   * on infrastructure (the episode ends, the cell may be filled again) or was given up (the episode ends, the cell
   * counts with the score it had). Checked whole before anything is written.
   */
  async report(principal: Principal, runId: string, episodeName: string, report: CellReportRequestDto): Promise<CellDto> {
    const viewer = runViewerOf(principal);
    const run = visibleRun(viewer, await this.runs.find(viewer.tenantId, runId), runId);
    const caller = { tenantId: viewer.tenantId, keyId: viewer.keyId, seesWholeTenant: viewer.seesWholeTenant, seesTestGrades: viewer.seesScores };
    const episode = await this.episodes.runEpisode(caller, episodeName);
    if (episode.runId !== run.id) throw new NotFoundError(`episode "${episodeName}" is not an episode of run "${run.id}"`);
    if (report.infrastructure_error !== undefined && report.gave_up) {
      throw new ValidationFailedError(['infrastructure_error', 'gave_up'].map((field) => ({ field, message: 'an attempt either failed on infrastructure or was given up, not both' })));
    }
    if (report.infrastructure_error !== undefined) await this.episodes.endRunAttempt(caller, episodeName, 'failed');
    if (report.gave_up) await this.episodes.endRunAttempt(caller, episodeName, 'gave_up');
    if (report.input_tokens !== undefined || report.output_tokens !== undefined) {
      await this.runs.addTokens(viewer.tenantId, run.id, episode.id, report.input_tokens ?? null, report.output_tokens ?? null);
    }
    const cell = await this.runs.cellOfEpisode(viewer.tenantId, run.id, episode.id);
    if (cell === null) throw new ConflictError(`episode "${episodeName}" no longer fills a cell of run "${run.id}": its cell was filled again`);
    return presentCell(cell, viewer.seesScores);
  }
}

/** The cells' cursor: the hand-out position of the last cell of the page, opaque to clients. */
function encodePosition(position: number): string {
  return Buffer.from(`cell:${position}`).toString('base64url');
}

function decodePosition(cursor: string): number {
  const match = /^cell:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new InvalidFieldError('cursor', 'cursor is not one this server issued; pass next_cursor from the previous page');
  return Number(match[1]);
}
