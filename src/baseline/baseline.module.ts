import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { BaselineController } from './baseline.controller';
import { BaselineService } from './baseline.service';
import { EpisodesModule } from '../episodes';

@Module({
  imports: [EpisodesModule, TasksModule],
  controllers: [BaselineController],
  providers: [BaselineService],
  exports: [BaselineService],
})
export class BaselineModule {}
