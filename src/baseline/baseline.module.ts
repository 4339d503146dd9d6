import { Module } from '@nestjs/common';
import { EpisodesModule } from '../episodes/episodes.module';
import { TasksModule } from '../tasks/tasks.module';
import { BaselineController } from './baseline.controller';
import { BaselineService } from './baseline.service';

@Module({
  imports: [EpisodesModule, TasksModule],
  controllers: [BaselineController],
  providers: [BaselineService],
  exports: [BaselineService],
})
export class BaselineModule {}
