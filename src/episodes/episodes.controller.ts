import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { Access } from '../access/access.decorator';
import { CurrentTenant } from '../access/current-principal.decorator';
import { EpisodeStateDto, ResetResponseDto, StepResponseDto } from './dto/episode-responses.dto';
import { ResetRequestDto } from './dto/reset-request.dto';
import { StepRequestDto } from './dto/step-request.dto';
import { EpisodesService } from './episodes.service';

@ApiTags('episodes')
@Access.Tenant()
@Controller()
export class EpisodesController {
  constructor(private readonly episodes: EpisodesService) {}

  @Post('reset')
  @HttpCode(200)
  @ApiOperation({ operationId: 'reset', summary: 'Start an episode (an empty body starts the easy task)' })
  @ApiOkResponse({ type: ResetResponseDto })
  @ApiErrors(400, 409, 413, 415, 422, 503)
  reset(@CurrentTenant() tenantId: string, @Body() body: ResetRequestDto): Promise<ResetResponseDto> {
    return this.episodes.reset(tenantId, body);
  }

  @Post('step')
  @HttpCode(200)
  @ApiOperation({ operationId: 'step', summary: 'Apply one action to an episode' })
  @ApiOkResponse({ type: StepResponseDto })
  @ApiErrors(400, 404, 409, 413, 415, 422, 503)
  step(@CurrentTenant() tenantId: string, @Body() body: StepRequestDto): Promise<StepResponseDto> {
    return this.episodes.step(tenantId, body.episode_id, body.action, body.request_id);
  }

  @Get('state')
  @ApiOperation({
    operationId: 'getLatestState',
    summary: "State of the caller's most recent episode (for clients without a session, as OpenEnv's HTTP mode)",
  })
  @ApiOkResponse({ type: EpisodeStateDto })
  @ApiErrors(404)
  latestState(@CurrentTenant() tenantId: string): Promise<EpisodeStateDto> {
    return this.episodes.latestState(tenantId);
  }

  @Get('state/:episode_id')
  @ApiOperation({ operationId: 'getState', summary: 'Full state of an episode, with its whole action log' })
  @ApiOkResponse({ type: EpisodeStateDto })
  @ApiErrors(404)
  state(@CurrentTenant() tenantId: string, @Param('episode_id') episodeId: string): Promise<EpisodeStateDto> {
    return this.episodes.state(tenantId, episodeId);
  }
}
