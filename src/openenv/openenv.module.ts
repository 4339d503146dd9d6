import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { McpModule } from '../mcp';
import { WsGateway } from './ws-gateway.service';
import { EpisodesModule } from '../episodes';

@Module({ imports: [AuthModule, EpisodesModule, McpModule], providers: [WsGateway] })
export class OpenEnvModule {}
