import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../common/clock';
import { ConflictError, InvalidFieldError, NotFoundError, TooManyError, UnauthenticatedError, UnavailableError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database.service';
import type { SqlConnection } from '../database/sql-connection';
import { graderVersionOfState, type GradeBreakdown } from '../engine/grader';
import type { EpisodeState } from '../engine/state';
import { ActiveEpisodeCache } from './active-episode-cache';
import { ChainKeys } from './chain-keys';
import { CHAIN_SCHEMES, chainLink, chainStart, type ChainKey } from './hash-chain';
import { ACTIVE_STATE, withActiveState } from './active-state';
import { createdEntry, expiredEntry, factsDigest, stepEntry } from './ledger/ledger-entry';
import { appendLedgerEntry, nextLedgerEntry } from './ledger/ledger-statements';
import { fromStoredLog } from './log-columns';
import { componentColumns } from './score-columns';
import { SNAPSHOT_DROPPED, snapshotFor, stateOf } from './finished-state';
import { privateSplitKeyIdOf } from '../tasks/private-split';
import { TaskCatalog } from '../tasks/task-catalog.service';
import { emptyPurge, purgeEpisodes, selectExpiredEpisodes, setRetentionRow, type PurgeRecord } from './purge/episode-purge';
import { beginTenantDeletion, deleteTenantEpisodes, finishTenantDeletion, type TenantDeletionRecord } from './purge/tenant-deletion';
import { retentionEntry, signedEndedBefore, signedRetentionDays } from './purge/signed-facts';
import { CellTakenError, claimCell, endCellAttempt, finishCellOf, giveUpCellOf, selectCell, type CellKey } from './run-cells/run-cell-statements';
import {
  countActiveEpisodes,
  expireEpisode,
  expireIdleEpisodes,
  insertActionLog,
  insertEpisode,
  insertStepRequest,
  selectActionJsons,
  selectEpisode,
  selectEpisodeIdByAlias,
  selectEpisodeOwner,
  selectEpisodeIfChanged,
  selectEpisodeVersion,
  selectStepRequest,
  tenantExists,
  updateEpisodeStep,
  type EpisodeSummary,
  type EpisodeWithStateRow,
} from './episode-statements';
import {
  EpisodeRepository,
  type ActionLogRecord,
  type EpisodeRecord,
  type EpisodeRowStatus,
  StaleEpisodeError,
  type NewEpisode,
  type StepRequestKey,
  type StepWrite,
  type StoredStepRequest,
} from './episode.repository';

/**
 * Episodes in SQLite. Reset, step and reads of one episode (the hot path) are statements on the database's
 * direct face (writes group-committed), with recently stepped active episodes cached in memory for steps and
 * reads alike; listings go through Prisma.
 */
const DAY_MS = 86_400_000;

@Injectable()
export class SqliteEpisodeRepository extends EpisodeRepository {
  private readonly cache: ActiveEpisodeCache;

  constructor(
    private readonly database: Database,
    private readonly keys: ChainKeys,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly clock: Clock,
    private readonly catalog: TaskCatalog,
  ) {
    super();
    this.cache = new ActiveEpisodeCache(config.episodeCacheSize);
    // A batch that failed to commit may have cached states that were never stored.
    database.onBatchRollback(() => this.cache.clear());
  }

  create(tenantId: string, episode: NewEpisode, maxActive: number): Promise<EpisodeRecord> {
    return this.database.batched(async (sql) => {
      // A tenant deleted after this request was authenticated: its key no longer opens anything.
      if (!(await tenantExists(sql, tenantId))) throw new UnauthenticatedError('the tenant of this API key has been deleted');
      // Counted and created in one write, so the cap cannot be overshot.
      if (maxActive > 0) {
        const active = await countActiveEpisodes(sql, tenantId);
        if (active >= maxActive) {
          throw new TooManyError(
            `this tenant has ${active} active episodes, the most allowed (${maxActive}); finish some, or let idle ones expire`,
          );
        }
      }
      const { id, alias } = await this.placeOf(sql, tenantId, episode);
      const now = this.clock.now();
      const key = this.keys.current;
      const metadata = {
        episodeId: id,
        tenantId,
        apiKeyId: episode.apiKeyId,
        taskId: episode.taskId,
        taskVersion: episode.taskVersion,
        seed: episode.seed,
        agent: episode.agent,
        runLabel: episode.runLabel,
        tags: episode.tags,
        createdAt: now,
        splitSource: episode.splitSource,
        splitKeyId: episode.splitKeyId,
      };
      const record: EpisodeRecord = {
        ...metadata,
        id,
        alias,
        runId: episode.cell?.runId ?? null,
        runTrial: episode.cell?.trial ?? null,
        graderVersion: graderVersionOfState(episode.state),
        feedback: episode.feedback,
        status: episode.state.status,
        version: 0,
        state: episode.state,
        chainHead: chainStart(key, metadata),
        chainScheme: CHAIN_SCHEMES.keyed,
        chainKeyId: key.id,
        updatedAt: now,
      };
      if (episode.cell) await claimRunCell(sql, tenantId, episode.cell, id, now);
      try {
        // Its creation entry is signed under the chain key (the episode's own) and stored in its row (ledger-rows.ts).
        const facts = { metadata, feedback: record.feedback, chainScheme: record.chainScheme, chainKeyId: record.chainKeyId };
        const created = await nextLedgerEntry(sql, key, tenantId, createdEntry(facts));
        await insertEpisode(sql, record, summaryOf(episode.state, episode.grade), { seq: created.seq, mac: created.mac, factsSha256: factsDigest(facts) });
      } catch (error) {
        const code = (error as { code?: string }).code;
        // SQLite's key conflicts, or PostgreSQL's unique_violation: another request created the same episode first.
        if (code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505') {
          throw new ConflictError(`an episode "${episode.id}" already exists; choose another episode_id or omit it`);
        }
        throw error;
      }
      this.cache.put(record);
      return record;
    });
  }

  /**
   * Where a new episode is stored. Its id is free: stored under it. Taken by an episode the caller can see (its
   * own, one of the whole tenant's for a caller that sees it, or one stored before keys were recorded), or already
   * the caller's alias: a 409. Taken by another agent key's episode: stored under a fresh id, with the chosen one as
   * the caller's alias, so the answer does not tell one agent key which ids another has used.
   */
  private async placeOf(sql: SqlConnection, tenantId: string, episode: NewEpisode): Promise<{ id: string; alias: string | null }> {
    const taken = () => new ConflictError(`an episode "${episode.id}" already exists; choose another episode_id or omit it`);
    const keyId = episode.idSpace === 'key' ? episode.apiKeyId : null;
    if (keyId !== null && (await selectEpisodeIdByAlias(sql, tenantId, keyId, episode.id)) !== null) throw taken();
    const holder = await selectEpisodeOwner(sql, tenantId, episode.id);
    if (holder === null) return { id: episode.id, alias: null };
    if (keyId === null || holder.apiKeyId === null || holder.apiKeyId === keyId) throw taken();
    return { id: randomUUID(), alias: episode.id };
  }

  async findIdByAlias(tenantId: string, apiKeyId: string, alias: string): Promise<string | null> {
    return this.database.read((sql) => selectEpisodeIdByAlias(sql, tenantId, apiKeyId, alias));
  }

  /**
   * Active episodes come from the same cache as steps: a view between steps costs one lookup of the row's
   * version (so a copy another writer made stale is never served) instead of reading and parsing the snapshot.
   */
  async find(tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
    const found = await this.database.read(async (sql) => {
      const cached = this.cache.get(tenantId, episodeId);
      if (cached && (await selectEpisodeVersion(sql, tenantId, episodeId)) === cached.version) return cached;
      const row = await selectEpisode(sql, tenantId, episodeId);
      if (!row) this.cache.forget(tenantId, episodeId);
      return row;
    });
    if (found === null || 'state' in found) return found;
    const episode = await this.recordOf(found);
    this.cache.put(episode);
    return episode;
  }

  async findLatest(tenantId: string, apiKeyId?: string | null): Promise<EpisodeRecord | null> {
    const row = await this.database.serialized((db) => {
      const where = apiKeyId === undefined ? { tenantId } : { tenantId, apiKeyId };
      return db.episode.findFirst({ where, orderBy: [{ createdAt: 'desc' }, { serial: 'desc' }], include: ACTIVE_STATE });
    });
    return row ? this.recordOf(withActiveState(row)) : null;
  }

  async findForStep(tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
    const cached = this.cache.get(tenantId, episodeId);
    if (cached && this.database.kind === 'sqlite') return cached;
    if (cached) {
      // On PostgreSQL other replicas step the same episodes (a load balancer sends each request to any of them): a
      // copy they have advanced would be computed on, refused by the conditioned write and computed again. One
      // read says whether the row moved on, and brings it when it did.
      const changed = await this.database.read((sql) => selectEpisodeIfChanged(sql, tenantId, episodeId, cached.version));
      if (!changed) return cached;
      this.cache.forget(tenantId, episodeId);
      return this.recordOf(changed);
    }
    const row = await this.database.read((sql) => selectEpisode(sql, tenantId, episodeId));
    return row ? this.recordOf(row) : null;
  }

  /** The record of a stored row: its snapshot parsed, or, for an episode that has ended, its state replayed. */
  private async recordOf(row: EpisodeWithStateRow): Promise<EpisodeRecord> {
    if (row.stateJson !== SNAPSHOT_DROPPED) return toRecord(row, JSON.parse(row.stateJson) as EpisodeState);
    const task = await this.catalog.fetchInstance(row.taskId, row.taskVersion, row.seed, privateSplitKeyIdOf(row));
    const actions = await this.database.read((sql) => selectActionJsons(sql, row.tenantId, row.id));
    return toRecord(row, stateOf(task, row, () => actions));
  }

  async findStepRequest(tenantId: string, episodeId: string, requestId: string): Promise<StoredStepRequest | null> {
    return this.database.read((sql) => selectStepRequest(sql, tenantId, episodeId, requestId));
  }

  saveStep(from: EpisodeRecord, step: StepWrite, request: StepRequestKey | null): Promise<void> {
    return this.database
      .batched((sql) => this.writeStep(sql, from, step, request))
      .catch((error: unknown) => {
        // A copy made stale by another writer (the idle sweep, another process) is dropped, so the retry reads the row.
        if (error instanceof StaleEpisodeError) this.cache.forget(from.tenantId, from.id);
        throw error;
      });
  }

  /** Runs inside the batch transaction: writes the step computed from `episode`, then caches the result. */
  private async writeStep(sql: SqlConnection, episode: EpisodeRecord, step: StepWrite, request: StepRequestKey | null): Promise<void> {
    const { state, grade, entry, actionJson } = step;
    const createdAt = this.clock.now();
    const hash = chainLink(this.linkKey(episode), episode.chainHead, {
      episodeId: episode.id,
      stepIndex: entry.step,
      action: entry.action,
      rewardMilli: entry.reward_milli,
      scoreAfterMilli: entry.score_after_milli,
      outcome: entry.outcome,
      error: entry.error,
      createdAt,
    });
    // Conditioned on the version the step was computed from: a stale read matches no row and writes nothing.
    const key = { tenantId: episode.tenantId, episodeId: episode.id, expectedVersion: episode.version };
    if (!(await updateEpisodeStep(sql, key, hash, summaryOf(state, grade), createdAt))) throw new StaleEpisodeError();
    // The step's ledger entry is stored in its log row (ledger/ledger-rows.ts), not as a row of its own.
    const ledger = await nextLedgerEntry(sql, this.keys.current, episode.tenantId, stepEntry(episode.id, entry.step, hash, state.status, createdAt));
    await insertActionLog(sql, {
      episodeId: episode.id,
      tenantId: episode.tenantId,
      stepIndex: entry.step,
      actionJson,
      rewardMilli: entry.reward_milli,
      scoreAfterMilli: entry.score_after_milli,
      outcome: entry.outcome,
      error: entry.error,
      createdAt,
      hash,
      ledger: {
        seq: ledger.seq,
        mac: ledger.mac,
        keyId: ledger.keyId === episode.chainKeyId ? null : ledger.keyId,
        status: state.status === 'active' ? null : state.status,
      },
    });
    if (episode.runId !== null && state.status !== 'active') {
      await finishCellOf(sql, episode.tenantId, { runId: episode.runId, episodeId: episode.id }, { termination: state.status, scoreMilli: state.score_milli, at: createdAt });
    }
    if (request) {
      await insertStepRequest(sql, {
        episodeId: episode.id,
        tenantId: episode.tenantId,
        requestId: request.requestId,
        stepIndex: entry.step,
        actionHash: request.actionHash,
        responseJson: JSON.stringify(step.response),
        createdAt,
      });
    }
    this.cache.put({ ...episode, status: state.status, version: episode.version + 1, state, chainHead: hash, updatedAt: createdAt });
  }

  /** The key new links of this episode are made with (none only for a legacy episode not sealed yet). */
  private linkKey(episode: EpisodeRecord): ChainKey | null {
    if (episode.chainKeyId === null) return null;
    const key = this.keys.byId(episode.chainKeyId);
    if (!key) {
      throw new UnavailableError(`episode "${episode.id}" is chained with key ${episode.chainKeyId}, which this server does not hold; add it to CHAIN_RETIRED_KEYS_FILE`);
    }
    return key;
  }

  purgeFinished(tenantId: string, limit: number): Promise<PurgeRecord> {
    return this.database.batched(async (sql) => {
      const now = this.clock.now();
      const keyById = (id: string) => this.keys.byId(id);
      // The signed period, not the column: see purge/signed-facts.ts.
      const days = await signedRetentionDays(sql, keyById, tenantId);
      if (days === null) return emptyPurge(tenantId);
      const cutoff = new Date(now.getTime() - days * DAY_MS);
      const candidates = await selectExpiredEpisodes(sql, tenantId, cutoff, limit);
      const ended: string[] = [];
      for (const id of candidates) if (await signedEndedBefore(sql, keyById, tenantId, id, cutoff)) ended.push(id);
      const policy = { reason: 'retention' as const, retentionDays: days, cutoff, skipped: candidates.length - ended.length };
      return purgeEpisodes(sql, this.keys.current, tenantId, ended, policy, now);
    });
  }

  setRetention(tenantId: string, days: number | null): Promise<void> {
    return this.database.batched(async (sql) => {
      const at = this.clock.now();
      await setRetentionRow(sql, tenantId, days, at);
      await appendLedgerEntry(sql, this.keys.current, tenantId, retentionEntry(days, at));
    });
  }

  beginTenantDeletion(tenantId: string, slug: string, resumed: boolean): Promise<TenantDeletionRecord> {
    return this.database.batched((sql) => beginTenantDeletion(sql, tenantId, slug, this.clock.now(), resumed));
  }

  deleteTenantEpisodes(tenantId: string, limit: number): Promise<number> {
    return this.database.batched(async (sql) => {
      const deleted = await deleteTenantEpisodes(sql, tenantId, limit);
      // Its active episodes may be cached; those deleted do not exist any more.
      if (deleted > 0) this.cache.clear();
      return deleted;
    });
  }

  finishTenantDeletion(tenantId: string, slug: string, record: TenantDeletionRecord): Promise<void> {
    return this.database.batched((sql) => finishTenantDeletion(sql, tenantId, slug, record, this.clock.now()));
  }

  expireIdleEpisodesOfAllTenants(cutoff: Date): Promise<number> {
    return this.database.batched(async (sql) => {
      // The version moves on so that a cached copy of an expired episode can no longer be written back; each
      // expiry is a ledger entry of its tenant, so a later status change is not taken for one.
      const expired = await expireIdleEpisodes(sql, cutoff);
      const at = this.clock.now();
      for (const episode of expired) {
        await appendLedgerEntry(sql, this.keys.current, episode.tenantId, expiredEntry(episode.id, at));
        await endCellAttempt(sql, episode.tenantId, episode.id, { status: 'abandoned', termination: 'abandoned', at });
      }
      if (expired.length > 0) this.cache.clear();
      return expired.length;
    });
  }

  failRunAttempt(tenantId: string, episodeId: string): Promise<boolean> {
    return this.endRunAttempt(tenantId, episodeId, (sql, at) => endCellAttempt(sql, tenantId, episodeId, { status: 'failed', termination: 'infrastructure_error', at }));
  }

  giveUpRunAttempt(tenantId: string, episodeId: string): Promise<boolean> {
    return this.endRunAttempt(tenantId, episodeId, (sql, at) => giveUpCellOf(sql, tenantId, episodeId, at));
  }

  /**
   * Ends a run episode's attempt as `endCell` says, in one write: the attempt is over, so its episode ends too
   * (expired, version moved on, like the idle sweep's), and can neither fill the cell later nor be stepped.
   */
  private endRunAttempt(tenantId: string, episodeId: string, endCell: (sql: SqlConnection, at: Date) => Promise<boolean>): Promise<boolean> {
    return this.database.batched(async (sql) => {
      const at = this.clock.now();
      if (!(await endCell(sql, at))) return false;
      if (await expireEpisode(sql, tenantId, episodeId)) await appendLedgerEntry(sql, this.keys.current, tenantId, expiredEntry(episodeId, at));
      this.cache.forget(tenantId, episodeId);
      return true;
    });
  }

  async listActions(tenantId: string, episodeId: string): Promise<ActionLogRecord[]> {
    const rows = await this.database.serialized((db) =>
      db.actionLog.findMany({
        where: { episode: { id: episodeId, tenantId } },
        orderBy: { stepIndex: 'asc' },
        select: {
          stepIndex: true,
          actionJson: true,
          rewardMilli: true,
          scoreAfterMilli: true,
          outcome: true,
          error: true,
          createdAt: true,
          hash: true,
        },
      }),
    );
    return rows.map(fromStoredLog);
  }
}

/**
 * Claims the run cell a new episode fills, inside the episode's write. A cell may be claimed when it was never
 * filled or its last attempt was abandoned or failed; a finished one or one being filled is a 409.
 */
async function claimRunCell(sql: SqlConnection, tenantId: string, cell: CellKey, episodeId: string, at: Date): Promise<void> {
  if (await claimCell(sql, tenantId, cell, episodeId, at)) return;
  const name = `cell (task_id "${cell.taskId}", seed ${cell.seed}, trial ${cell.trial}) of run "${cell.runId}"`;
  const found = await selectCell(sql, tenantId, cell);
  if (found === null) throw new InvalidFieldError('run_id', `the ${name} does not exist`);
  if (found.status === 'finished') throw new CellTakenError(`the ${name} is already filled: its first finished episode counts`);
  throw new CellTakenError(`the ${name} is being filled by episode "${found.episodeId}"; finish it, or report it failed, first`);
}

/** Columns copied out of the snapshot and the grade so episodes can be filtered and aggregated in SQL. */
function summaryOf(state: EpisodeState, grade: GradeBreakdown): EpisodeSummary {
  return {
    status: state.status,
    stepCount: state.step_count,
    scoreMilli: state.score_milli,
    stateJson: snapshotFor(state),
    ...componentColumns(grade),
  };
}

function toRecord(row: EpisodeWithStateRow, state: EpisodeState): EpisodeRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    apiKeyId: row.apiKeyId,
    alias: row.alias,
    status: row.status as EpisodeRowStatus,
    taskId: row.taskId,
    taskVersion: row.taskVersion,
    graderVersion: row.graderVersion,
    feedback: row.feedback === 'final' ? 'final' : 'dense',
    seed: row.seed,
    splitSource: row.splitSource === 'private' ? 'private' : 'public',
    splitKeyId: row.splitKeyId,
    runId: row.runId,
    runTrial: row.runTrial,
    version: row.version,
    agent: row.agent,
    runLabel: row.runLabel,
    tags: JSON.parse(row.tagsJson) as string[],
    state,
    chainHead: row.chainHead,
    chainScheme: row.chainScheme,
    chainKeyId: row.chainKeyId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
