import { Module } from '@nestjs/common';
import { AdminTenantsController } from './admin-tenants.controller';
import { TenantRepository } from './tenant.repository';
import { TenantsService } from './tenants.service';

@Module({
  controllers: [AdminTenantsController],
  providers: [TenantRepository, TenantsService],
  exports: [TenantsService, TenantRepository],
})
export class TenantsModule {}
