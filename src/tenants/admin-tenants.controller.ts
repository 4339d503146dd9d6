import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Access } from '../access/access.decorator';
import { ApiErrors, queryValidation } from '../common/api-errors.decorator';
import {
  AdminEventListDto,
  AdminEventsQueryDto,
  ApiKeyDto,
  ApiKeyListDto,
  CreateApiKeyDto,
  CreatedApiKeyDto,
  CreateTenantDto,
  TenantDto,
  TenantListDto,
} from './dto/tenant.dto';
import { NO_TENANT_ERROR } from './tenant.constants';
import { TenantsService } from './tenants.service';

@ApiTags('admin')
@Controller('admin/tenants')
export class AdminTenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Access.Admin()
  @Post()
  @HttpCode(200)
  @ApiOperation({ operationId: 'createTenant', summary: 'Create a tenant' })
  @ApiOkResponse({ type: TenantDto })
  @ApiErrors(
    { status: 409, description: 'A tenant with this slug exists', example: 'a record with that key already exists (is the id taken?)' },
    { status: 422, example: 'slug must be 2-63 lowercase letters, digits or "-"', field: 'slug' },
  )
  create(@Body() body: CreateTenantDto): Promise<TenantDto> {
    return this.tenants.create(body.slug, body.name);
  }

  @Access.Admin()
  @Get()
  @ApiOperation({ operationId: 'listTenants', summary: 'List tenants' })
  @ApiOkResponse({ type: TenantListDto })
  async list(): Promise<TenantListDto> {
    return { tenants: await this.tenants.list() };
  }

  @Access.Admin()
  @Post(':slug/keys')
  @HttpCode(200)
  @ApiOperation({ operationId: 'issueApiKey', summary: 'Issue an API key for a tenant, agent or reader (the key is in this response only)' })
  @ApiOkResponse({ type: CreatedApiKeyDto })
  @ApiErrors(NO_TENANT_ERROR, { status: 422, example: 'name is required', field: 'name' })
  issueKey(@Param('slug') slug: string, @Body() body: CreateApiKeyDto): Promise<CreatedApiKeyDto> {
    return this.tenants.issueKey(slug, body.name, body.scope ?? 'agent');
  }

  @Access.Admin()
  @Get(':slug/keys')
  @ApiOperation({ operationId: 'listApiKeys', summary: "List a tenant's keys (prefixes only)" })
  @ApiOkResponse({ type: ApiKeyListDto })
  @ApiErrors(NO_TENANT_ERROR)
  async listKeys(@Param('slug') slug: string): Promise<ApiKeyListDto> {
    return { keys: await this.tenants.listKeys(slug) };
  }

  @Access.Admin()
  @Delete(':slug/keys/:key_id')
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke a key; it answers 401 from then on' })
  @ApiOkResponse({ type: ApiKeyDto })
  @ApiErrors({ status: 404, description: 'No such tenant, or no such key of it', example: 'tenant "robotics-lab" has no key "1f0e…"' })
  revokeKey(@Param('slug') slug: string, @Param('key_id') keyId: string): Promise<ApiKeyDto> {
    return this.tenants.revokeKey(slug, keyId);
  }
}

@ApiTags('admin')
@Controller('admin/events')
export class AdminEventsController {
  constructor(private readonly tenants: TenantsService) {}

  @Access.Admin()
  @Get()
  @ApiOperation({ operationId: 'listAdminEvents', summary: 'What the admin key did: tenants created, keys issued and revoked (newest first)' })
  @ApiOkResponse({ type: AdminEventListDto })
  @ApiErrors(queryValidation('limit', 'limit must not be greater than 1000'))
  async events(@Query() query: AdminEventsQueryDto): Promise<AdminEventListDto> {
    return { events: await this.tenants.events(query.limit ?? 100, query.before_id) };
  }
}
