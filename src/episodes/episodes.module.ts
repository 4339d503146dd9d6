import { Module } from '@nestjs/common';
import { TasksModule } from '../tasks/tasks.module';
import { AdminLedgerController } from './admin-ledger.controller';
import { ChainKeys } from './chain-keys';
import { EpisodeExpiryService } from './episode-expiry.service';
import { LegacyChainSeals } from './legacy-chain-seals';
import { LedgerCheckpoints } from './ledger/ledger-checkpoints';
import { LedgerEnrollment } from './ledger/ledger-enrollment';
import { EpisodeRepository } from './episode.repository';
import { EpisodesController } from './episodes.controller';
import { EpisodesService } from './episodes.service';
import { GraderController } from './grader.controller';
import { SqliteEpisodeRepository } from './sqlite-episode.repository';
import { RunCells } from './run-cells/run-cells';
import { InstancePreviewController } from './instance-preview/instance-preview.controller';
import { InstancePreviewService } from './instance-preview/instance-preview.service';

@Module({
  imports: [TasksModule],
  controllers: [EpisodesController, GraderController, AdminLedgerController, InstancePreviewController],
  providers: [
    EpisodesService,
    InstancePreviewService,
    RunCells,
    EpisodeExpiryService,
    ChainKeys,
    LegacyChainSeals,
    LedgerEnrollment,
    LedgerCheckpoints,
    { provide: EpisodeRepository, useClass: SqliteEpisodeRepository },
  ],
  exports: [EpisodesService, ChainKeys, LedgerCheckpoints],
})
export class EpisodesModule {}
