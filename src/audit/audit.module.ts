import { Module } from '@nestjs/common';
import { EpisodesModule } from '../episodes';
import { TasksModule } from '../tasks/tasks.module';
import { TenantsModule } from '../tenants/tenants.module';
import { AuditController } from './audit.controller';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { EpisodeVerifier } from './episode-verifier';
import { LedgerAuditService } from './ledger-audit.service';

@Module({
  imports: [TasksModule, TenantsModule, EpisodesModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditService, EpisodeVerifier, LedgerAuditService],
})
export class AuditModule {}
