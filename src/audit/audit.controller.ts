import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Access } from '../access/access.decorator';
import { CurrentPrincipal } from '../access/current-principal.decorator';
import type { Principal } from '../access/principal';
import { ApiErrors } from '../common/api-errors.decorator';
import { AuditService } from './audit.service';
import {
  EpisodeActionsDto,
  EpisodeDetailDto,
  EpisodePageDto,
  StatsDto,
  RescoreReportDto,
  VerifyReportDto,
} from './dto/audit-responses.dto';
import { EpisodeRefQueryDto, ExportQueryDto, ListEpisodesQueryDto, StatsQueryDto } from './dto/episode-filters.dto';
import { streamLines } from './stream-lines';

@ApiTags('audit')
@Controller()
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Access.Audit()
  @Get('episodes')
  @ApiOperation({ operationId: 'listEpisodes', summary: 'Past episodes, newest first, filtered, with cursor pagination' })
  @ApiOkResponse({ type: EpisodePageDto })
  @ApiErrors(422)
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
  @ApiProduces('application/x-ndjson')
  @ApiOkResponse({ description: 'One EpisodeSummary with an `actions` array per line', schema: { type: 'string' } })
  @ApiErrors(422)
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
  @ApiErrors(404, 409, 422)
  get(@CurrentPrincipal() principal: Principal, @Param('episode_id') episodeId: string, @Query() query: EpisodeRefQueryDto): Promise<EpisodeDetailDto> {
    return this.audit.get(principal, episodeId, query.tenant);
  }

  @Access.Audit()
  @Get('episodes/:episode_id/actions')
  @ApiOperation({ operationId: 'getEpisodeActions', summary: 'The full action log with per-step reward, score and hash' })
  @ApiOkResponse({ type: EpisodeActionsDto })
  @ApiErrors(404, 409, 422)
  actions(@CurrentPrincipal() principal: Principal, @Param('episode_id') episodeId: string, @Query() query: EpisodeRefQueryDto): Promise<EpisodeActionsDto> {
    return this.audit.actions(principal, episodeId, query.tenant);
  }

  @Access.Audit()
  @Get('episodes/:episode_id/verify')
  @ApiOperation({ operationId: 'verifyEpisode', summary: 'Check the hash chain and replay the log through the engine' })
  @ApiOkResponse({ type: VerifyReportDto })
  @ApiErrors(404, 409, 422)
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
  @ApiErrors(404, 409, 422)
  rescore(@CurrentPrincipal() principal: Principal, @Param('episode_id') episodeId: string, @Query() query: EpisodeRefQueryDto): Promise<RescoreReportDto> {
    return this.audit.rescore(principal, episodeId, query.tenant);
  }

  @Access.Audit()
  @Get('stats')
  @ApiOperation({ operationId: 'getStats', summary: 'Per-task counts, completion, mean/median score, success rate and component means' })
  @ApiOkResponse({ type: StatsDto })
  @ApiErrors(422)
  stats(@CurrentPrincipal() principal: Principal, @Query() query: StatsQueryDto): Promise<StatsDto> {
    return this.audit.stats(principal, query);
  }
}
