import { Module } from '@nestjs/common';
import { EpisodesModule } from '../episodes/episodes.module';
import { EpisodeTools } from './episode-tools.service';
import { McpController } from './mcp.controller';
import { McpSessions } from './mcp-sessions.service';

@Module({
  imports: [EpisodesModule],
  controllers: [McpController],
  providers: [EpisodeTools, McpSessions],
  exports: [EpisodeTools],
})
export class McpModule {}
