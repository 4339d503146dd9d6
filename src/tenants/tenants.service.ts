import { Injectable, OnModuleInit } from '@nestjs/common';
import { PUBLIC_TENANT } from './tenant.constants';
import { TenantRepository } from './tenant.repository';

@Injectable()
export class TenantsService implements OnModuleInit {
  constructor(private readonly tenants: TenantRepository) {}

  /** The public tenant must exist before the first anonymous episode references it. */
  async onModuleInit(): Promise<void> {
    await this.tenants.ensure(PUBLIC_TENANT);
  }
}
