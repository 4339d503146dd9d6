import { Module } from '@nestjs/common';
import { EpisodeTools } from './episode-tools.service';
import { McpController } from './mcp.controller';
import { ToolsController } from './tools.controller';
import { ProtocolSessionRepository } from './protocol-session.repository';
import { McpSessions } from './mcp-sessions.service';
import { OpenEnvRpc } from './openenv-rpc';
import { EpisodesModule } from '../episodes';
import { TenantsModule } from '../tenants/tenants.module';

@Module({
  imports: [EpisodesModule, TenantsModule],
  controllers: [McpController, ToolsController],
  providers: [EpisodeTools, McpSessions, OpenEnvRpc, ProtocolSessionRepository],
  exports: [EpisodeTools],
})
export class McpModule {}
