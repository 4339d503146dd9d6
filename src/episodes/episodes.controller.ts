import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { Access } from '../access/access.decorator';
import { CurrentCaller } from '../access/current-principal.decorator';
import type { EpisodeCaller } from '../access/principal';
import { EpisodeStateDto, ResetResponseDto, StepResponseDto } from './dto/episode-responses.dto';
import { ResetRequestDto } from './dto/reset-request.dto';
import { StepRequestDto } from './dto/step-request.dto';
import { EpisodesService } from './episodes.service';

@ApiTags('episodes')
@Controller()
export class EpisodesController {
  constructor(private readonly episodes: EpisodesService) {}

  @Post('reset')
  @Access.Agent()
  @HttpCode(200)
  @ApiOperation({ operationId: 'reset', summary: 'Start an episode (an empty body starts the easy task)' })
  @ApiOkResponse({ type: ResetResponseDto })
  @ApiErrors(
    { status: 404, description: 'No run with this run_id in the caller\'s tenant', example: 'no run "run_7Qm2" (create one with POST /runs)' },
    {
      status: 409,
      description:
        'The caller already has an episode with this episode_id (an agent key: one it started under that id); or, with a run_id, the cell is already finished or has an active episode, or every cell of the run is taken',
    },
    { status: 422, description: 'A field is invalid; or, with a run_id, the cell is not in the run or a field the run decides (split, variant, feedback, agent, run_label) was given', example: 'each tag must be 1-64 letters, digits, "_", "-", "." or ":"', field: 'tags' },
    { status: 429, description: 'Over a rate limit, or the tenant already holds MAX_ACTIVE_EPISODES_PER_TENANT active episodes; `Retry-After` says when to come back (for the rate limits)' })
  reset(@CurrentCaller() caller: EpisodeCaller, @Body() body: ResetRequestDto): Promise<ResetResponseDto> {
    return this.episodes.reset(caller, body);
  }

  @Post('step')
  @Access.Agent()
  @HttpCode(200)
  @ApiOperation({ operationId: 'step', summary: 'Apply one action to an episode' })
  @ApiOkResponse({ type: StepResponseDto })
  @ApiErrors(
    404,
    {
      status: 409,
      description:
        'The episode is finished or expired, or this request_id was used for a different action, or it was drawn from the private test split with a key this server no longer holds',
    },
    422,
  )
  step(@CurrentCaller() caller: EpisodeCaller, @Body() body: StepRequestDto): Promise<StepResponseDto> {
    return this.episodes.step(caller, body.episode_id, body.action, body.request_id);
  }

  @Get('state')
  @Access.Episode()
  @ApiOperation({
    operationId: 'getLatestState',
    summary: "State of the caller's most recent episode (for clients without a session, as OpenEnv's HTTP mode)",
  })
  @ApiOkResponse({ type: EpisodeStateDto })
  @ApiErrors({ status: 404, description: 'The caller has no episode yet', example: 'no episode yet; start one with POST /reset' }, { status: 409, description: 'The episode was drawn from the private test split with a key this server no longer holds (PRIVATE_SPLIT_RETIRED_KEYS_FILE), so its instance cannot be drawn' })
  latestState(@CurrentCaller() caller: EpisodeCaller): Promise<EpisodeStateDto> {
    return this.episodes.latestState(caller);
  }

  @Get('state/:episode_id')
  @Access.Episode()
  @ApiOperation({ operationId: 'getState', summary: 'Full state of an episode, with its whole action log' })
  @ApiOkResponse({ type: EpisodeStateDto })
  @ApiErrors(404, { status: 409, description: 'The episode was drawn from the private test split with a key this server no longer holds (PRIVATE_SPLIT_RETIRED_KEYS_FILE), so its instance cannot be drawn' })
  state(@CurrentCaller() caller: EpisodeCaller, @Param('episode_id') episodeId: string): Promise<EpisodeStateDto> {
    return this.episodes.state(caller, episodeId);
  }
}
