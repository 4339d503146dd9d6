import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation, ApiProduces, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Access } from '../access/access.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import type { Principal } from '../access/principal';
import { ApiErrors } from '../common/api-errors.decorator';
import { streamLines } from '../audit/stream-lines';
import { CellReportRequestDto } from './dto/cell-report.dto';
import { ComparisonDto } from './dto/comparison.dto';
import { CreateRunRequestDto } from './dto/create-run.dto';
import { LeaderboardDto } from './dto/leaderboard.dto';
import { RegradeDto, RegradeRequestDto } from './dto/regrade.dto';
import { CellDto, CellPageDto, RunDto, RunPageDto } from './dto/run.dto';
import { ExportRunQueryDto, LeaderboardQueryDto, ListCellsQueryDto, ListRunsQueryDto } from './dto/run-queries.dto';
import { CSV_COLUMNS, ExportedRunEpisodeDto } from './dto/run-export.dto';
import { LeaderboardService } from './leaderboard.service';
import { RegradeService } from './regrade.service';
import { RunComparisonService } from './run-comparison.service';
import { RunExportService } from './run-export.service';
import { RunsService } from './runs.service';

const NO_RUN = { status: 404, description: 'No such run for the caller (an agent key sees only the runs it created)', example: 'no run "run_5f0c2a9e4b7d1c3a8e6f0b2d"' } as const;
const ADMIN_403 = { status: 403, description: 'The admin key: runs belong to a tenant, read them with its reader key', example: "runs belong to a tenant: read them with the tenant's reader key" } as const;

@ApiTags('runs')
@ApiExtraModels(ExportedRunEpisodeDto)
@Controller()
export class RunsController {
  constructor(
    private readonly runs: RunsService,
    private readonly comparisons: RunComparisonService,
    private readonly leaderboards: LeaderboardService,
    private readonly regrades: RegradeService,
    private readonly exports: RunExportService,
  ) {}

  @Post('runs')
  @Access.Agent()
  @ApiOperation({ operationId: 'createRun', summary: 'Create an evaluation run: its cells (family, seed, trial) are fixed now, each to be filled by one finished episode' })
  @ApiCreatedResponse({ type: RunDto })
  @ApiErrors({ status: 422, example: 'give exactly one of seeds (a list) and seed_count (the first N seeds of the split)', field: 'seeds' })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateRunRequestDto): Promise<RunDto> {
    return this.runs.create(principal, body);
  }

  @Get('runs')
  @Access.Episode()
  @ApiOperation({ operationId: 'listRuns', summary: 'Runs, newest first, filtered, with cursor pagination (an agent key: the runs it created)' })
  @ApiOkResponse({ type: RunPageDto })
  @ApiErrors(ADMIN_403, { status: 422, example: 'cursor is not one this server issued; pass next_cursor from the previous page', field: 'cursor' })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListRunsQueryDto): Promise<RunPageDto> {
    return this.runs.list(principal, query);
  }

  // Declared before `runs/:run_id/...` routes that could take "compare" for an id.
  @Get('runs/:run_a/compare/:run_b')
  @Access.Audit()
  @ApiOperation({ operationId: 'compareRuns', summary: 'Paired comparison of two runs over the cells they share: differences with intervals, a sign test and a verdict' })
  @ApiOkResponse({ type: ComparisonDto })
  @ApiErrors(ADMIN_403, NO_RUN, { status: 409, description: 'The runs were drawn or graded with different versions, or share no cell', example: 'the runs differ in grader version (16 vs 15): their scores do not pair' })
  compare(@CurrentPrincipal() principal: Principal, @Param('run_a') runA: string, @Param('run_b') runB: string): Promise<ComparisonDto> {
    return this.comparisons.compare(principal, runA, runB);
  }

  @Get('runs/:run_id')
  @Access.Episode()
  @ApiOperation({ operationId: 'getRun', summary: 'A run: progress, and for a reader key its results (means, pass^k with intervals, flip rates, components, terminations)' })
  @ApiOkResponse({ type: RunDto })
  @ApiErrors(ADMIN_403, NO_RUN)
  get(@CurrentPrincipal() principal: Principal, @Param('run_id') runId: string): Promise<RunDto> {
    return this.runs.get(principal, runId);
  }

  @Get('runs/:run_id/cells')
  @Access.Episode()
  @ApiOperation({ operationId: 'listRunCells', summary: "A run's cells in hand-out order, with each one's status, attempts, termination, wall time and tokens" })
  @ApiOkResponse({ type: CellPageDto })
  @ApiErrors(ADMIN_403, NO_RUN, { status: 422, example: 'cursor is not one this server issued; pass next_cursor from the previous page', field: 'cursor' })
  cells(@CurrentPrincipal() principal: Principal, @Param('run_id') runId: string, @Query() query: ListCellsQueryDto): Promise<CellPageDto> {
    return this.runs.cells(principal, runId, query);
  }

  @Post('runs/:run_id/episodes/:episode_id/report')
  @Access.Agent()
  @HttpCode(200)
  @ApiOperation({ operationId: 'reportRunEpisode', summary: "The agent's report on one of its run episodes: token use, or an infrastructure failure (the cell may then be filled again)" })
  @ApiOkResponse({ type: CellDto })
  @ApiErrors(
    { status: 404, description: 'No such run or episode for the caller, or the episode is not one of the run', example: 'no run "run_5f0c2a9e4b7d1c3a8e6f0b2d"' },
    { status: 409, description: 'An infrastructure failure reported for an episode that has ended or no longer fills its cell', example: 'episode "ep-1" is not an active attempt at a run cell (it has ended, or its cell was filled again); nothing changed' },
    { status: 422, example: 'input_tokens must not be less than 0', field: 'input_tokens' },
  )
  report(
    @CurrentPrincipal() principal: Principal,
    @Param('run_id') runId: string,
    @Param('episode_id') episodeId: string,
    @Body() body: CellReportRequestDto,
  ): Promise<CellDto> {
    return this.runs.report(principal, runId, episodeId, body);
  }

  @Post('runs/:run_id/regrade')
  @Access.Audit()
  @ApiOperation({ operationId: 'regradeRun', summary: "Score every finished episode of a run again under a grader version (default: the current one): a new result linked to the run, which is never overwritten" })
  @ApiCreatedResponse({ type: RegradeDto })
  @ApiErrors(ADMIN_403, NO_RUN, { status: 422, example: 'grader version 1 cannot grade task logistics_missing_order_vip', field: 'grader_version' })
  regrade(@CurrentPrincipal() principal: Principal, @Param('run_id') runId: string, @Body() body: RegradeRequestDto): Promise<RegradeDto> {
    return this.regrades.regrade(principal, runId, body);
  }

  @Get('runs/:run_id/regrade/:regrade_id')
  @Access.Audit()
  @ApiOperation({ operationId: 'getRunRegrade', summary: 'A regrade of a run: the episodes whose score or success changed, with the components that moved' })
  @ApiOkResponse({ type: RegradeDto })
  @ApiErrors(ADMIN_403, { status: 404, description: 'No such run, or no such regrade of it', example: 'no regrade "rg_0a1b2c3d4e5f6a7b8c9d0e1f" of run "run_5f0c2a9e4b7d1c3a8e6f0b2d"' })
  getRegrade(@CurrentPrincipal() principal: Principal, @Param('run_id') runId: string, @Param('regrade_id') regradeId: string): Promise<RegradeDto> {
    return this.regrades.get(principal, runId, regradeId);
  }

  @Get('runs/:run_id/export')
  @Access.Audit()
  @ApiOperation({ operationId: 'exportRun', summary: 'Stream a run: JSON lines (one per counted episode, with trajectory and grade), CSV (one line per cell) or an Inspect AI log (.eval)' })
  @ApiProduces('application/x-ndjson', 'text/csv', 'application/zip')
  @ApiOkResponse({
    description:
      'format=jsonl: one ExportedRunEpisodeDto per line (application/x-ndjson), in hand-out order. ' +
      `format=csv: a header line and one line per cell in hand-out order, columns ${CSV_COLUMNS.join(', ')} (empty where null). ` +
      'format=inspect: an Inspect AI log (.eval, a ZIP: header.json, _journal/start.json, samples/{id}_epoch_{n}.json, summaries.json, reductions.json) that opens in `inspect view`. ' +
      'Errors are found before the first byte and answered as JSON; a failure after it cuts the stream short.',
    content: {
      'application/x-ndjson': { schema: { $ref: getSchemaPath(ExportedRunEpisodeDto) } },
      'text/csv': { schema: { type: 'string', description: `CSV: ${CSV_COLUMNS.join(',')}` } },
      'application/zip': { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiErrors(ADMIN_403, NO_RUN, { status: 422, example: 'format must be one of: jsonl, csv, inspect', field: 'format' })
  async export(@CurrentPrincipal() principal: Principal, @Param('run_id') runId: string, @Query() query: ExportRunQueryDto, @Res() reply: FastifyReply): Promise<void> {
    const { chunks, contentType, fileName } = await this.exports.export(principal, runId, query.format ?? 'jsonl');
    await streamLines(reply, chunks, contentType, { 'content-disposition': `attachment; filename="${fileName}"` });
  }

  @Get('leaderboard')
  @Access.Audit()
  @ApiOperation({ operationId: 'getLeaderboard', summary: "The tenant's leaderboard on a split: each agent's most recent complete run, ranked by pass^1 with intervals, in tiers" })
  @ApiOkResponse({ type: LeaderboardDto })
  @ApiErrors(ADMIN_403, { status: 422, example: 'split must be one of the following values: test, train, canonical', field: 'split' })
  leaderboard(@CurrentPrincipal() principal: Principal, @Query() query: LeaderboardQueryDto): Promise<LeaderboardDto> {
    return this.leaderboards.leaderboard(principal, query.split ?? 'test');
  }
}
