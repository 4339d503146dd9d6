import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { AdminChainController } from './admin-chain.controller';
import { ChainKeys } from './chain-keys';
import { EpisodeExpiryService } from './episode-expiry.service';
import { LegacyChainSeals } from './legacy-chain-seals';
import { EpisodeRepository } from './episode.repository';
import { EpisodesController } from './episodes.controller';
import { EpisodesService } from './episodes.service';
import { GraderController } from './grader.controller';
import { SqliteEpisodeRepository } from './sqlite-episode.repository';

@Module({
  imports: [TasksModule],
  controllers: [EpisodesController, GraderController, AdminChainController],
  providers: [
    EpisodesService,
    EpisodeExpiryService,
    ChainKeys,
    LegacyChainSeals,
    { provide: EpisodeRepository, useClass: SqliteEpisodeRepository },
  ],
  exports: [EpisodesService, ChainKeys],
})
export class EpisodesModule {}
