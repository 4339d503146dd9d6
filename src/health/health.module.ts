import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { HealthController } from './health.controller';
import { HealthService } from './health.service';

@Module({ imports: [TasksModule], controllers: [HealthController], providers: [HealthService] })
export class HealthModule {}
