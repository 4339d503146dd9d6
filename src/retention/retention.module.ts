import { Module } from '@nestjs/common';
import { EpisodesModule } from '../episodes';
import { TenantsModule } from '../tenants/tenants.module';
import { AdminRetentionController } from './admin-retention.controller';
import { RetentionService } from './retention.service';

@Module({
  imports: [EpisodesModule, TenantsModule],
  controllers: [AdminRetentionController],
  providers: [RetentionService],
})
export class RetentionModule {}
