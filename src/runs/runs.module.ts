import { Module } from '@nestjs/common';
import { EpisodesModule } from '../episodes';
import { TasksModule } from '../tasks/tasks.module';
import { LeaderboardService } from './leaderboard.service';
import { RegradeService } from './regrade.service';
import { RunComparisonService } from './run-comparison.service';
import { RunExportService } from './run-export.service';
import { RunResultsCache } from './run-results-cache';
import { RunsController } from './runs.controller';
import { RunsRepository } from './runs.repository';
import { RunsService } from './runs.service';

@Module({
  imports: [EpisodesModule, TasksModule],
  controllers: [RunsController],
  providers: [RunsService, RunsRepository, RunResultsCache, RunComparisonService, LeaderboardService, RegradeService, RunExportService],
})
export class RunsModule {}
