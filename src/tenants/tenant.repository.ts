import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

@Injectable()
export class TenantRepository {
  constructor(private readonly prisma: PrismaService) {}

  ensure(tenant: { id: string; slug: string; name: string }): Promise<void> {
    return this.prisma.serialized(async (db) => {
      await db.tenant.upsert({ where: { id: tenant.id }, create: tenant, update: {} });
    });
  }
}
