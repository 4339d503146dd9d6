import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { Access } from '../access/access.decorator';
import { CurrentCaller } from '../access/current-principal.decorator';
import type { EpisodeCaller } from '../access/principal';
import { GraderRequestDto } from './dto/episode-ref.dto';
import { GradeResponseDto } from './dto/episode-responses.dto';
import { EpisodesService } from './episodes.service';

@ApiTags('grading')
@Controller()
export class GraderController {
  constructor(private readonly episodes: EpisodesService) {}

  @Access.Episode()
  @Post('grader')
  @HttpCode(200)
  @ApiOperation({ operationId: 'grade', summary: 'Score an episode with a per-component explanation' })
  @ApiOkResponse({ type: GradeResponseDto })
  @ApiErrors(404, { status: 409, description: 'The episode was drawn from the private test split with a key this server no longer holds (PRIVATE_SPLIT_RETIRED_KEYS_FILE), so its instance cannot be drawn' }, { status: 422, example: 'episode_id is required', field: 'episode_id' })
  grade(@CurrentCaller() caller: EpisodeCaller, @Body() body: GraderRequestDto): Promise<GradeResponseDto> {
    return this.episodes.grade(caller, body.episode_id);
  }
}
