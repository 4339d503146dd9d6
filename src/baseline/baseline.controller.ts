import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import { Access } from '../access/access.decorator';
import { CurrentCaller } from '../access/current-principal.decorator';
import type { EpisodeCaller } from '../access/principal';
import { BaselineService } from './baseline.service';
import { BaselineRequestDto, BaselineResponseDto } from './dto/baseline.dto';

@ApiTags('baseline')
@Controller('baseline')
export class BaselineController {
  constructor(private readonly baseline: BaselineService) {}

  @Access.Agent()
  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'runBaseline', summary: 'Run the built-in heuristic policy on tasks as persisted episodes' })
  @ApiOkResponse({ type: BaselineResponseDto })
  @ApiErrors({ status: 422, example: 'task_ids must contain no more than 20 elements', field: 'task_ids' }, { status: 429, description: 'Over a rate limit, over BASELINE_RUNS_PER_HOUR runs of this tenant in the last hour, a run of this tenant still in progress, or the tenant already holds MAX_ACTIVE_EPISODES_PER_TENANT active episodes; `Retry-After` says when to come back (for the rate limits and the baseline quota)' })
  run(@CurrentCaller() caller: EpisodeCaller, @Body() body: BaselineRequestDto): Promise<BaselineResponseDto> {
    return this.baseline.run(caller, body.task_ids);
  }
}
