import { Module } from '@nestjs/common';
import { EpisodeTools } from './episode-tools.service';
import { McpController } from './mcp.controller';
import { McpSessions } from './mcp-sessions.service';
import { EpisodesModule } from '../episodes';
import { TenantsModule } from '../tenants/tenants.module';

@Module({
  imports: [EpisodesModule, TenantsModule],
  controllers: [McpController],
  providers: [EpisodeTools, McpSessions],
  exports: [EpisodeTools],
})
export class McpModule {}
