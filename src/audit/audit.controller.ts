import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiOperation, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Access } from '../access/access.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import type { Principal } from '../access/principal';
import { ApiErrors, queryValidation } from '../common/api-errors.decorator';
import { AuditService } from './audit.service';
import { LedgerQueryDto } from './dto/ledger-query.dto';
import { LedgerReportListDto } from './dto/ledger-report.dto';
import { LedgerAuditService } from './ledger-audit.service';
import {
  EpisodeActionsDto,
  EpisodeDetailDto,
  EpisodePageDto,
  ExportedEpisodeDto,
  StatsDto,
  RescoreReportDto,
  VerifyReportDto,
} from './dto/audit-responses.dto';
import { EpisodeRefQueryDto, ExportQueryDto, ListEpisodesQueryDto, StatsQueryDto } from './dto/episode-filters.dto';
import { streamLines } from './stream-lines';
import { EpisodeStepDto, EpisodeStepParamsDto, MAX_STEPS_EVER } from './dto/episode-step.dto';

const FILTER_422 = queryValidation('created_after', 'created_after must be an RFC 3339 date-time with a time zone, e.g. 2026-01-31T00:00:00Z');
const TENANT_422 = queryValidation('tenant', 'tenant must be a tenant slug');

@ApiTags('audit')
@ApiExtraModels(ExportedEpisodeDto)
@Controller()
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly ledger: LedgerAuditService,
  ) {}

  @Access.Audit()
  @Get('ledger/verify')
  @ApiOperation({
    operationId: 'verifyLedger',
    summary: "Check a tenant's whole ledger: every entry in sequence under its MAC, no episode deleted or missing, its newest checkpoint still reached",
  })
  @ApiOkResponse({ type: LedgerReportListDto })
  @ApiErrors({ status: 404, description: 'No tenant with the slug given in `tenant` (admin key)', example: 'no tenant "robotics-lab"' }, TENANT_422)
  async verifyLedger(@CurrentPrincipal() principal: Principal, @Query() query: LedgerQueryDto): Promise<LedgerReportListDto> {
    return { tenants: await this.ledger.verify(principal, query.tenant) };
  }

  @Access.Audit()
  @Get('episodes')
  @ApiOperation({ operationId: 'listEpisodes', summary: 'Past episodes, newest first, filtered, with cursor pagination' })
  @ApiOkResponse({ type: EpisodePageDto })
  @ApiErrors({ status: 404, description: 'No tenant with the slug given in `tenant` (admin key)', example: 'no tenant "robotics-lab"' }, FILTER_422)
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListEpisodesQueryDto): Promise<EpisodePageDto> {
    return this.audit.list(principal, query);
  }

  // Declared before `episodes/:episode_id` so that "export" is not taken for an id.
  @Access.Audit()
  @Get('episodes/export')
  @ApiOperation({
    operationId: 'exportEpisodes',
    summary: 'Stream matching episodes as JSON lines, each with its full trajectory (a training/eval dataset)',
  })
  @ApiOkResponse({
    description:
      'JSON Lines (application/x-ndjson): one ExportedEpisodeDto per line, newest first; no lines when nothing matches. ' +
      'The schema describes one line. Errors are found before the first line and answered as JSON like every error; ' +
      'a failure after it cuts the stream short.',
    content: { 'application/x-ndjson': { schema: { $ref: getSchemaPath(ExportedEpisodeDto) } } },
  })
  @ApiErrors({ status: 404, description: 'No tenant with the slug given in `tenant` (admin key)', example: 'no tenant "robotics-lab"' }, FILTER_422)
  async export(
    @CurrentPrincipal() principal: Principal,
    @Query() query: ExportQueryDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await streamLines(reply, this.audit.exportLines(principal, query), 'application/x-ndjson; charset=utf-8');
  }

  @Access.Audit()
  @Get('episodes/:episode_id')
  @ApiOperation({ operationId: 'getEpisode', summary: 'Summary of one episode with its score components' })
  @ApiOkResponse({ type: EpisodeDetailDto })
  @ApiErrors(
    404,
    { status: 409, description: 'Several tenants have an episode with this id: name one with tenant=<slug> (admin key)' },
    TENANT_422,
  )
  get(@CurrentPrincipal() principal: Principal, @Param('episode_id') episodeId: string, @Query() query: EpisodeRefQueryDto): Promise<EpisodeDetailDto> {
    return this.audit.get(principal, episodeId, query.tenant);
  }

  @Access.Audit()
  @Get('episodes/:episode_id/actions')
  @ApiOperation({ operationId: 'getEpisodeActions', summary: 'The full action log with per-step reward, score and hash' })
  @ApiOkResponse({ type: EpisodeActionsDto })
  @ApiErrors(
    404,
    { status: 409, description: 'Several tenants have an episode with this id: name one with tenant=<slug> (admin key)' },
    TENANT_422,
  )
  actions(@CurrentPrincipal() principal: Principal, @Param('episode_id') episodeId: string, @Query() query: EpisodeRefQueryDto): Promise<EpisodeActionsDto> {
    return this.audit.actions(principal, episodeId, query.tenant);
  }

  @Access.Audit()
  @Get('episodes/:episode_id/steps/:step')
  @ApiOperation({
    operationId: 'getEpisodeStep',
    summary: 'The episode just after one of its steps (0: as reset left it): the logged action, the observation the agent saw, what the step changed, and the grade then',
  })
  @ApiOkResponse({ type: EpisodeStepDto })
  @ApiErrors(
    { status: 404, description: 'No such episode for the caller, or it has fewer steps', example: 'episode "0b9c2f4e-5d6a-4f0e-9a51-2c0d3f7e8b11" has no step 12: its steps are 0 (as reset left it) to 7' },
    {
      status: 409,
      description:
        'Several tenants have an episode with this id: name one with tenant=<slug> (admin key); or its instance was drawn from the private test split with a key this server no longer holds',
    },
    { status: 422, description: `The step is not an integer from 0 to ${MAX_STEPS_EVER}, or tenant is not a tenant slug; \`details\` names each`, example: "step must be an integer from 0 to the episode's step count", field: 'step' },
  )
  step(@CurrentPrincipal() principal: Principal, @Param() params: EpisodeStepParamsDto, @Query() query: EpisodeRefQueryDto): Promise<EpisodeStepDto> {
    return this.audit.step(principal, params.episode_id, params.step, query.tenant);
  }

  @Access.Audit()
  @Get('episodes/:episode_id/verify')
  @ApiOperation({ operationId: 'verifyEpisode', summary: 'Check the hash chain and replay the log through the engine' })
  @ApiOkResponse({ type: VerifyReportDto })
  @ApiErrors(
    404,
    { status: 409, description: 'Several tenants have an episode with this id: name one with tenant=<slug> (admin key)' },
    TENANT_422,
  )
  verify(@CurrentPrincipal() principal: Principal, @Param('episode_id') episodeId: string, @Query() query: EpisodeRefQueryDto): Promise<VerifyReportDto> {
    return this.audit.verify(principal, episodeId, query.tenant);
  }

  @Access.Audit()
  @Get('episodes/:episode_id/rescore')
  @ApiOperation({
    operationId: 'rescoreEpisode',
    summary: "The episode's logged actions scored again by the current grader on the task's current version (nothing is stored)",
  })
  @ApiOkResponse({ type: RescoreReportDto })
  @ApiErrors(
    404,
    { status: 409, description: 'Several tenants have an episode with this id: name one with tenant=<slug> (admin key)' },
    TENANT_422,
  )
  rescore(@CurrentPrincipal() principal: Principal, @Param('episode_id') episodeId: string, @Query() query: EpisodeRefQueryDto): Promise<RescoreReportDto> {
    return this.audit.rescore(principal, episodeId, query.tenant);
  }

  @Access.Audit()
  @Get('stats')
  @ApiOperation({ operationId: 'getStats', summary: 'Per-task counts, completion, mean/median score, success rate and component means' })
  @ApiOkResponse({ type: StatsDto })
  @ApiErrors({ status: 404, description: 'No tenant with the slug given in `tenant` (admin key)', example: 'no tenant "robotics-lab"' }, FILTER_422)
  stats(@CurrentPrincipal() principal: Principal, @Query() query: StatsQueryDto): Promise<StatsDto> {
    return this.audit.stats(principal, query);
  }
}
