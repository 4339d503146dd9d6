import { Module } from '@nestjs/common';
import { AdminEventsController, AdminTenantsController } from './admin-tenants.controller';
import { KeyRevocations } from './key-revocations';
import { TenantRepository } from './tenant.repository';
import { TenantsService } from './tenants.service';

@Module({
  controllers: [AdminTenantsController, AdminEventsController],
  providers: [TenantRepository, TenantsService, KeyRevocations],
  exports: [TenantsService, TenantRepository, KeyRevocations],
})
export class TenantsModule {}
