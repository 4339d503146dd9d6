import { Module } from '@nestjs/common';
import { TenantRepository } from './tenant.repository';
import { TenantsService } from './tenants.service';

@Module({ providers: [TenantRepository, TenantsService], exports: [TenantsService] })
export class TenantsModule {}
