import { Module } from '@nestjs/common';
import { TaskCatalog } from './task-catalog.service';
import { TaskVersionRepository } from './task-version.repository';
import { TasksController } from './tasks.controller';

@Module({
  controllers: [TasksController],
  providers: [TaskCatalog, TaskVersionRepository],
  exports: [TaskCatalog],
})
export class TasksModule {}
