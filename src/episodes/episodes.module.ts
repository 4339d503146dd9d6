import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
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
import { StepBatch } from './step-batch/step-batch';
import { StepBatchController } from './step-batch/step-batch.controller';
import { InstancePreviewController } from './instance-preview/instance-preview.controller';
import { InstancePreviewService } from './instance-preview/instance-preview.service';

@Module({
  imports: [TasksModule, AuthModule],
  controllers: [EpisodesController, StepBatchController, GraderController, AdminLedgerController, InstancePreviewController],
  providers: [
    EpisodesService,
    StepBatch,
    InstancePreviewService,
    RunCells,
    EpisodeExpiryService,
    ChainKeys,
    LegacyChainSeals,
    LedgerEnrollment,
    LedgerCheckpoints,
    { provide: EpisodeRepository, useClass: SqliteEpisodeRepository },
  ],
  exports: [EpisodesService, StepBatch, ChainKeys, LedgerCheckpoints, EpisodeRepository],
})
export class EpisodesModule {}
