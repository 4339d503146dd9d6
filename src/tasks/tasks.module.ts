import { Module } from '@nestjs/common';
import { PrivateSplitKeys } from './private-split';
import { TaskCatalog } from './task-catalog.service';
import { TaskVersionRepository } from './task-version.repository';
import { TasksController } from './tasks.controller';

@Module({
  controllers: [TasksController],
  providers: [TaskCatalog, TaskVersionRepository, PrivateSplitKeys],
  exports: [TaskCatalog],
})
export class TasksModule {}
