import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../../access/access.decorator';
import { CurrentPrincipal } from '../../access/current-principal.decorator';
import type { Principal } from '../../access/principal';
import { ApiErrors } from '../../common/api-errors.decorator';
import { InstancePreviewDto, InstancePreviewParamsDto } from '../dto/instance-preview.dto';
import { InstancePreviewService } from './instance-preview.service';

@ApiTags('tasks')
@Controller('tasks')
export class InstancePreviewController {
  constructor(private readonly previews: InstancePreviewService) {}

  @Access.Catalogue()
  @Get(':task_id/instances/:seed')
  @ApiOperation({
    operationId: 'previewTaskInstance',
    summary: 'The instance a seed draws, as an agent meets it (the first observation and every ticket opened), without playing it and without its answers',
  })
  @ApiOkResponse({ type: InstancePreviewDto })
  @ApiErrors(
    { status: 403, description: 'The seed is a test seed and the key is an agent key; or the Host header or a browser Origin is not allowed (ALLOWED_HOSTS, ALLOWED_ORIGINS)', example: 'seed 10 is a test seed: an agent key previews train-split instances only (a reader key sees test ones)' },
    { status: 404, description: 'No such task', example: 'unknown task "nope"; known tasks: billing_duplicate_charge, …' },
    { status: 422, description: 'The seed is not an integer from 0 to 2147483647, or the task has no family', example: 'seed must be an integer from 0 to 2147483647', field: 'seed' },
  )
  preview(@CurrentPrincipal() principal: Principal, @Param() params: InstancePreviewParamsDto): InstancePreviewDto {
    return this.previews.preview(principal, params.task_id, params.seed);
  }
}
