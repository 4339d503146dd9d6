import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EpisodesModule } from '../episodes/episodes.module';
import { McpModule } from '../mcp/mcp.module';
import { WsGateway } from './ws-gateway.service';

@Module({ imports: [AuthModule, EpisodesModule, McpModule], providers: [WsGateway] })
export class OpenEnvModule {}
