/*
 * The episodes module's public surface: what other modules (audit, baseline, mcp, openenv) may import. Anything
 * not exported here is the module's own business.
 */
export { EpisodesModule } from './episodes.module';
export { EpisodesService, DEFAULT_TASK_ID } from './episodes.service';
export { FEEDBACK_MODES, type ActionLogRecord, type EpisodeRowStatus, type FeedbackMode } from './episode.repository';
export { CHAIN_SCHEMES, chainLink, type ChainKey, type ChainedRow, type EpisodeMetadata } from './hash-chain';
export { ChainKeys } from './chain-keys';
export { verifyChain, type ChainFinding, type LoggedRow, type StoredChain } from './chain-verification';
export { COMPONENT_COLUMN_NAMES, componentColumns, type ComponentColumns } from './score-columns';
export { instanceOf, presentActionLog, presentComponents, presentPenalties, toPoints } from './episode.presenter';
export { ResetRequestDto, MAX_SEED, RUN_ID_PATTERN, TAG_PATTERN, VARIANTS, type Variant } from './dto/reset-request.dto';
export { StepRequestDto } from './dto/step-request.dto';
export { StepBatchRequestDto } from './dto/step-batch.dto';
export { StepBatch } from './step-batch/step-batch';
export { EPISODE_ID_MAX_LENGTH, EPISODE_ID_PATTERN } from './dto/episode-id';
export { ScoreComponentDto, ActionLogEntryDto, PenaltyDto, EPISODE_STATUSES, SPLIT_KEY_ID_DESCRIPTION, SPLIT_SOURCE_DESCRIPTION } from './dto/episode-responses.dto';
export { ObservationDto } from './dto/observation.dto';
export { presentObservation } from './episode.presenter';
export { ReplyDetailGradeDto } from './dto/reply-detail-grade.dto';
export { presentReplyDetails } from './episode.presenter';
export { LedgerCheckpoints, type Checkpoint } from './ledger/ledger-checkpoints';
export { LEDGER_GENESIS, ledgerMac, factsRecord, type LedgerEntry, type LedgerKind } from './ledger/ledger-entry';
export { entryMacHolds, episodeLedgerFinding, type EpisodeAsStored, type EpisodeLedger, type LedgerEntryInContext, type LedgerHole } from './ledger/ledger-verification';
export { committedGapsDigest, GapIndex, gapsDigest, type LedgerGap } from './ledger/ledger-gaps';
export { countLedgerEntriesBetween, selectLedgerEntriesOfEpisode, selectLedgerEntryAt, selectLedgerMacAt, selectLedgerPage } from './ledger/ledger-rows';
export { type PurgeRecord } from './purge/episode-purge';
export { type TenantDeletionRecord } from './purge/tenant-deletion';
export { EpisodeRepository } from './episode.repository';
export { SNAPSHOT_DROPPED, stateOf } from './finished-state';
export { ACTIVE_STATE, STORED_STATE_JSON, withActiveState } from './active-state';
export { episodeSerial, fromStoredLog, hashHex } from './log-columns';
