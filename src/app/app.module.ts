import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { AuditModule } from '../audit/audit.module';
import { RunsModule } from '../runs/runs.module';
import { AuthGuard } from '../auth/auth.guard';
import { AuthModule } from '../auth/auth.module';
import { BaselineModule } from '../baseline';
import { GlobalExceptionFilter } from '../http/global-exception.filter';
import { createValidationPipe } from '../common/validation';
import { Clock, SystemClock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { HealthModule } from '../health/health.module';
import { McpModule } from '../mcp';
import { MetricsModule } from '../metrics';
import { OpenApiModule } from '../openapi/openapi.module';
import { OpenEnvModule } from '../openenv/openenv.module';
import { DatabaseModule } from '../database/database.module';
import { ReplicasModule } from '../replicas';
import { TasksModule } from '../tasks/tasks.module';
import { TenantsModule } from '../tenants/tenants.module';
import { EpisodesModule } from '../episodes';
import { RetentionModule } from '../retention/retention.module';

@Module({})
export class AppModule {
  /**
   * The app for a given, already validated configuration (main.ts reads it from the environment), on the
   * machine's clock unless another is given.
   */
  static register(config: AppConfig, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [
        DatabaseModule,
        ReplicasModule,
        MetricsModule,
        TenantsModule,
        AuthModule,
        TasksModule,
        EpisodesModule,
        AuditModule,
        RunsModule,
        RetentionModule,
        BaselineModule,
        McpModule,
        OpenEnvModule,
        HealthModule,
        OpenApiModule,
      ],
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: Clock, useValue: clock },
        // Registered here rather than in main.ts so that every app built from this module, tests included,
        // checks access, validates and reports errors the same way (authentication and rate limits run earlier,
        // before the body is read: see create-app.ts).
        { provide: APP_GUARD, useClass: AuthGuard },
        { provide: APP_PIPE, useFactory: createValidationPipe },
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
      ],
      exports: [APP_CONFIG, Clock],
    };
  }
}
