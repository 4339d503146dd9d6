import { Body, Controller, Delete, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { ApiErrors, queryValidation } from '../common/api-errors.decorator';
import { TenantDto } from '../tenants/dto/tenant.dto';
import { NO_TENANT_ERROR } from '../tenants/tenant.constants';
import { DeletedTenantDto, DeleteTenantQueryDto, RetentionSweepDto, SetRetentionDto } from './dto/retention.dto';
import { RetentionService } from './retention.service';

@ApiTags('admin')
@Controller('admin')
export class AdminRetentionController {
  constructor(private readonly retention: RetentionService) {}

  @Access.Admin()
  @Put('tenants/:slug/retention')
  @ApiOperation({
    operationId: 'setTenantRetention',
    summary: "Set how long a tenant's finished episodes are kept",
    description:
      'Finished episodes that ended more than `retention_days` days ago are purged by the retention sweep, with their log and ' +
      "ledger entries; what remains still verifies (docs/operating.md). Active episodes are never purged. The period is signed in the tenant's " +
      "ledger, and the sweep acts only on it and on the episodes' signed entries. Recorded in the admin log.",
  })
  @ApiOkResponse({ type: TenantDto })
  @ApiErrors(NO_TENANT_ERROR, { status: 422, example: 'retention_days must not be less than 1', field: 'retention_days' })
  setRetention(@Param('slug') slug: string, @Body() body: SetRetentionDto): Promise<TenantDto> {
    return this.retention.setRetention(slug, body.retention_days);
  }

  @Access.Admin()
  @Delete('tenants/:slug/retention')
  @ApiOperation({ operationId: 'clearTenantRetention', summary: "Keep a tenant's finished episodes for ever again (the default)" })
  @ApiOkResponse({ type: TenantDto })
  @ApiErrors(NO_TENANT_ERROR)
  clearRetention(@Param('slug') slug: string): Promise<TenantDto> {
    return this.retention.setRetention(slug, null);
  }

  @Access.Admin()
  @Post('retention/sweep')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'sweepRetention',
    summary: 'Run the retention sweep now (it also runs every RETENTION_SWEEP_INTERVAL_MS)',
    description: 'Answers once every tenant with a retention period has been swept; a sweep already running is joined.',
  })
  @ApiOkResponse({ type: RetentionSweepDto })
  sweep(): Promise<RetentionSweepDto> {
    return this.retention.sweep();
  }

  @Access.Admin()
  @Delete('tenants/:slug')
  @ApiOperation({
    operationId: 'deleteTenant',
    summary: 'Delete a tenant and all its data (episodes, log, ledger, runs, keys): it cannot be undone',
    description:
      '`confirm` must repeat the slug. Export what you need first (GET /episodes/export?tenant=…, GET /runs/{id}/export). The ' +
      "tenant's keys stop working at once. The data goes a batch of episodes per write, so other tenants are served meanwhile; the " +
      'answer comes when all of it is gone (a deletion cut short by a stop is finished at the next start). The admin log keeps the ' +
      "tenant's events and records the deletion with what was removed.",
  })
  @ApiOkResponse({ type: DeletedTenantDto })
  @ApiErrors(
    NO_TENANT_ERROR,
    {
      status: 409,
      description: '`confirm` is not the slug (nothing was deleted), or the tenant is the built-in public one',
      example: 'confirm must repeat the tenant\'s slug ("robotics-lab") to delete it and all its data; nothing was deleted',
    },
    queryValidation('confirm', 'confirm is required'),
  )
  deleteTenant(@Param('slug') slug: string, @Query() query: DeleteTenantQueryDto): Promise<DeletedTenantDto> {
    return this.retention.deleteTenant(slug, query.confirm);
  }
}
