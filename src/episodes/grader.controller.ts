import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { Access } from '../access/access.decorator';
import { CurrentTenant } from '../access/current-principal.decorator';
import { GraderRequestDto } from './dto/episode-ref.dto';
import { GradeResponseDto } from './dto/episode-responses.dto';
import { EpisodesService } from './episodes.service';

@ApiTags('grading')
@Access.Tenant()
@Controller()
export class GraderController {
  constructor(private readonly episodes: EpisodesService) {}

  @Post('grader')
  @HttpCode(200)
  @ApiOperation({ operationId: 'grade', summary: 'Score an episode with a per-component explanation' })
  @ApiOkResponse({ type: GradeResponseDto })
  @ApiErrors(400, 404, 413, 415, 422)
  grade(@CurrentTenant() tenantId: string, @Body() body: GraderRequestDto): Promise<GradeResponseDto> {
    return this.episodes.grade(tenantId, body.episode_id);
  }
}
