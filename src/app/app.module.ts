import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import { AuditModule } from '../audit/audit.module';
import { AuthGuard } from '../auth/auth.guard';
import { AuthModule } from '../auth/auth.module';
import { BaselineModule } from '../baseline';
import { GlobalExceptionFilter } from '../http/global-exception.filter';
import { createValidationPipe } from '../common/validation';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { HealthModule } from '../health/health.module';
import { McpModule } from '../mcp';
import { OpenApiModule } from '../openapi/openapi.module';
import { OpenEnvModule } from '../openenv/openenv.module';
import { DatabaseModule } from '../database/database.module';
import { TasksModule } from '../tasks/tasks.module';
import { TenantsModule } from '../tenants/tenants.module';
import { TenantThrottlerGuard } from '../http/tenant-throttler.guard';
import { EpisodesModule } from '../episodes';

@Module({})
export class AppModule {
  /** The app for a given, already validated configuration (main.ts reads it from the environment). */
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'default', ttl: 60_000, limit: Math.max(config.rateLimitPerMinute, 1) }],
          skipIf: () => config.rateLimitPerMinute === 0,
        }),
        DatabaseModule,
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
