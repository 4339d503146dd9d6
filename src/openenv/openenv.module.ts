import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { McpModule } from '../mcp';
import { TenantsModule } from '../tenants/tenants.module';
import { WsGateway } from './ws-gateway.service';
import { EpisodesModule } from '../episodes';

@Module({ imports: [AuthModule, EpisodesModule, McpModule, TenantsModule], providers: [WsGateway] })
export class OpenEnvModule {}
