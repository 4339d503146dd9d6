import { randomUUID } from 'node:crypto';
import { graderVersionOfState } from '../../src/engine/grader';
import { canonicalJson, sha256Hex } from '../../src/common/canonical-json';
import { ConflictError, NotFoundError, TooManyError } from '../../src/common/errors/domain-errors';
import {
  EpisodeRepository,
  type ActionLogRecord,
  type EpisodeRecord,
  StaleEpisodeError,
  type NewEpisode,
  type StepRequestKey,
  type StepWrite,
  type StoredStepRequest,
} from '../../src/episodes/episode.repository';
import type { RunCells } from '../../src/episodes/run-cells/run-cells';
import { emptyPurge, type PurgeRecord } from '../../src/episodes/purge/episode-purge';
import type { TenantDeletionRecord } from '../../src/episodes/purge/tenant-deletion';

/**
 * The episode repository's contract kept in memory: what the service may rely on, without SQLite. Records are
 * copied in and out through JSON, as the real one parses what it stored, so a service that mutates what it was
 * given cannot pass here by accident.
 */
export class InMemoryEpisodeRepository extends EpisodeRepository {
  readonly episodes = new Map<string, EpisodeRecord>();
  readonly logs = new Map<string, ActionLogRecord[]>();
  readonly requests = new Map<string, { actionHash: string; responseJson: string }>();
  private clock = Date.UTC(2026, 10, 30);

  async create(tenantId: string, episode: NewEpisode, maxActive: number): Promise<EpisodeRecord> {
    const active = [...this.episodes.values()].filter((e) => e.tenantId === tenantId && e.status === 'active').length;
    if (maxActive > 0 && active >= maxActive) throw new TooManyError(`this tenant has ${active} active episodes`);
    const taken = () => new ConflictError(`an episode "${episode.id}" already exists`);
    const keyId = episode.idSpace === 'key' ? episode.apiKeyId : null;
    if (keyId !== null && (await this.findIdByAlias(tenantId, keyId, episode.id)) !== null) throw taken();
    const holder = this.episodes.get(keyOf(tenantId, episode.id));
    if (holder && (keyId === null || holder.apiKeyId === null || holder.apiKeyId === keyId)) throw taken();
    if (episode.cell !== null) throw new Error('the in-memory repository keeps no runs: run cells are tested on SQLite (test/runs.e2e-spec.ts)');
    const { idSpace: _space, cell: _cell, ...fields } = episode;
    const placed = holder ? { id: randomUUID(), alias: episode.id } : { id: episode.id, alias: null };
    const key = keyOf(tenantId, placed.id);
    const now = this.tick();
    const record: EpisodeRecord = {
      ...fields,
      ...placed,
      tenantId,
      runId: null,
      runTrial: null,
      graderVersion: graderVersionOfState(episode.state),
      feedback: episode.feedback,
      status: episode.state.status,
      version: 0,
      chainHead: '0'.repeat(64),
      chainScheme: 'hmac-sha256-v2',
      chainKeyId: 'hk_in_memory',
      createdAt: now,
      updatedAt: now,
    };
    this.episodes.set(key, copy(record));
    this.logs.set(key, []);
    return copy(record);
  }

  async failRunAttempt(): Promise<boolean> {
    return false;
  }

  async giveUpRunAttempt(): Promise<boolean> {
    return false;
  }

  async find(tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
    const found = this.episodes.get(keyOf(tenantId, episodeId));
    return found ? copy(found) : null;
  }

  async findIdByAlias(tenantId: string, apiKeyId: string, alias: string): Promise<string | null> {
    const named = [...this.episodes.values()].find((e) => e.tenantId === tenantId && e.apiKeyId === apiKeyId && e.alias === alias);
    return named?.id ?? null;
  }

  async findLatest(tenantId: string, apiKeyId?: string | null): Promise<EpisodeRecord | null> {
    const mine = [...this.episodes.values()].filter((e) => e.tenantId === tenantId && (apiKeyId === undefined || e.apiKeyId === apiKeyId));
    return mine.length === 0 ? null : copy(mine[mine.length - 1]);
  }

  async findForStep(tenantId: string, episodeId: string): Promise<EpisodeRecord | null> {
    return this.find(tenantId, episodeId);
  }

  async findStepRequest(tenantId: string, episodeId: string, requestId: string): Promise<StoredStepRequest | null> {
    const prior = this.requests.get(`${keyOf(tenantId, episodeId)}\u0000${requestId}`);
    return prior ? { ...prior } : null;
  }

  async saveStep(from: EpisodeRecord, step: StepWrite, request: StepRequestKey | null): Promise<void> {
    const key = keyOf(from.tenantId, from.id);
    const episode = this.episodes.get(key);
    if (!episode || episode.version !== from.version) throw new StaleEpisodeError();
    const { state, entry, actionJson } = step;
    const now = this.tick();
    this.logs.get(key)!.push({
      stepIndex: entry.step,
      actionJson,
      rewardMilli: entry.reward_milli,
      scoreAfterMilli: entry.score_after_milli,
      outcome: entry.outcome,
      error: entry.error,
      createdAt: now,
      hash: sha256Hex(`${episode.chainHead}${actionJson}`),
    });
    this.episodes.set(key, copy({ ...episode, state, status: state.status, version: episode.version + 1, updatedAt: now }));
    if (request) {
      this.requests.set(`${key}\u0000${request.requestId}`, { actionHash: request.actionHash, responseJson: JSON.stringify(step.response) });
    }
  }

  async expireIdleEpisodesOfAllTenants(cutoff: Date): Promise<number> {
    let count = 0;
    for (const [key, episode] of this.episodes) {
      if (episode.status === 'active' && episode.updatedAt < cutoff) {
        this.episodes.set(key, { ...episode, status: 'expired', version: episode.version + 1 });
        count++;
      }
    }
    return count;
  }

  private readonly retention = new Map<string, number | null>();

  async setRetention(tenantId: string, days: number | null): Promise<void> {
    this.retention.set(tenantId, days);
  }

  /** Retention without a ledger: finished episodes past the period go with their logs; the record counts them. */
  async purgeFinished(tenantId: string, limit: number): Promise<PurgeRecord> {
    const days = this.retention.get(tenantId) ?? null;
    if (days === null) return emptyPurge(tenantId);
    const cutoff = new Date(this.clock - days * 86_400_000);
    const gone = [...this.episodes.values()].filter((e) => e.tenantId === tenantId && e.status !== 'active' && e.updatedAt < cutoff).slice(0, limit);
    let steps = 0;
    for (const episode of gone) {
      steps += this.logs.get(keyOf(tenantId, episode.id))?.length ?? 0;
      this.episodes.delete(keyOf(tenantId, episode.id));
      this.logs.delete(keyOf(tenantId, episode.id));
    }
    const created = gone.map((e) => e.createdAt.toISOString()).sort();
    return {
      ...emptyPurge(tenantId),
      retentionDays: days,
      cutoff: cutoff.toISOString(),
      episodes: gone.length,
      steps,
      firstCreatedAt: created[0] ?? null,
      lastCreatedAt: created[created.length - 1] ?? null,
      chainHeads: Object.fromEntries(gone.map((e) => [e.id, e.chainHead])),
    };
  }

  async beginTenantDeletion(tenantId: string): Promise<TenantDeletionRecord> {
    const owned = [...this.episodes.values()].filter((e) => e.tenantId === tenantId);
    const steps = owned.reduce((n, e) => n + (this.logs.get(keyOf(tenantId, e.id))?.length ?? 0), 0);
    return { episodes: owned.length, steps, keys: 0, runs: 0, ledgerHead: null };
  }

  async deleteTenantEpisodes(tenantId: string, limit: number): Promise<number> {
    const gone = [...this.episodes.values()].filter((e) => e.tenantId === tenantId).slice(0, limit);
    for (const episode of gone) {
      this.episodes.delete(keyOf(tenantId, episode.id));
      this.logs.delete(keyOf(tenantId, episode.id));
    }
    return gone.length;
  }

  async finishTenantDeletion(): Promise<void> {}

  async listActions(tenantId: string, episodeId: string): Promise<ActionLogRecord[]> {
    return (this.logs.get(keyOf(tenantId, episodeId)) ?? []).map((row) => ({ ...row }));
  }

  private tick(): Date {
    this.clock += 1000;
    return new Date(this.clock);
  }
}

const keyOf = (tenantId: string, episodeId: string) => `${tenantId}\u0000${episodeId}`;

/** A deep copy that keeps dates as dates. */
function copy(record: EpisodeRecord): EpisodeRecord {
  return { ...record, tags: [...record.tags], state: JSON.parse(JSON.stringify(record.state)) };
}

/** Run cells for a service under test that runs no evaluation runs: any use of them is a test's mistake. */
export const NO_RUN_CELLS = new Proxy({} as RunCells, {
  get: () => () => {
    throw new Error('the in-memory tier keeps no runs: run cells are tested on SQLite (test/runs.e2e-spec.ts)');
  },
});
