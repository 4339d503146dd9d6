import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { LoggerModule } from 'nestjs-pino';
import { AuditModule } from './audit/audit.module';
import { AuthGuard } from './auth/auth.guard';
import { AuthModule } from './auth/auth.module';
import { BaselineModule } from './baseline/baseline.module';
import { GlobalExceptionFilter } from './common/global-exception.filter';
import { RequestBodyModule } from './common/request-body.module';
import { createValidationPipe } from './common/validation';
import { APP_CONFIG, type AppConfig } from './config/app-config';
import { EpisodesModule } from './episodes/episodes.module';
import { HealthModule } from './health/health.module';
import { requestLoggingParams } from './logging/request-logging';
import { McpModule } from './mcp/mcp.module';
import { OpenApiModule } from './openapi/openapi.module';
import { OpenEnvModule } from './openenv/openenv.module';
import { PrismaModule } from './prisma/prisma.module';
import { TasksModule } from './tasks/tasks.module';
import { TenantsModule } from './tenants/tenants.module';
import { TenantThrottlerGuard } from './throttling/tenant-throttler.guard';

@Module({})
export class AppModule {
  /** The app for a given, already validated configuration (main.ts reads it from the environment). */
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        LoggerModule.forRoot(requestLoggingParams(config)),
        RequestBodyModule,
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'default', ttl: 60_000, limit: Math.max(config.rateLimitPerMinute, 1) }],
          skipIf: () => config.rateLimitPerMinute === 0,
        }),
        PrismaModule,
        TenantsModule,
        AuthModule,
        TasksModule,
        EpisodesModule,
        AuditModule,
        BaselineModule,
        McpModule,
        OpenEnvModule,
        HealthModule,
        OpenApiModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        // Registered here rather than in main.ts so that every app built from this module, tests included,
        // authenticates, validates and reports errors the same way. Guards run in this order: who is calling,
        // then whether their tenant is over its rate.
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_GUARD, useClass: TenantThrottlerGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
      ],
      exports: [APP_CONFIG],
    };
  }
}
