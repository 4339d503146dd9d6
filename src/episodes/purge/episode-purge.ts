import type { SqlConnection } from '../../database/sql-connection';
import type { ChainKey } from '../hash-chain';
import { episodesDigest, gapsOf, purgedEntry, type PurgeReason } from '../ledger/ledger-gaps';
import { selectLedgerEntriesOfEpisode } from '../ledger/ledger-rows';
import { appendLedgerEntry } from '../ledger/ledger-statements';
import { PURGE_STATEMENTS } from './purge-statements';

/** What one purge removed, as the admin log records it. */
export interface PurgeRecord {
  tenantId: string;
  reason: PurgeReason;
  /** The signed retention period applied (null: the tenant has none, so nothing was purged). */
  retentionDays: number | null;
  cutoff: string | null;
  /** Finished episodes the rows named but whose signed ledger facts did not bear out (kept, and logged). */
  skipped: number;
  episodes: number;
  steps: number;
  ledgerEntries: number;
  /** The seq of the "episodes.purged" ledger entry (null when nothing was purged). */
  ledgerSeq: number | null;
  /** The removed episodes' creation times, oldest and newest (null when nothing was purged). */
  firstCreatedAt: string | null;
  lastCreatedAt: string | null;
  /** The chain head of every removed episode, by id: what its record ended in. */
  chainHeads: Record<string, string>;
}

/**
 * Removes finished episodes of one tenant with everything stored about them (log rows, tags, idempotency rows,
 * seal, ledger entries) in the caller's transaction, and records the purge: an "episodes.purged" ledger entry
 * committing to what was removed, the gaps it leaves (ledger-gaps.ts) and an admin-log event. Active episodes are
 * never purged (the caller selects finished ones; a row that is active by now is skipped). Run cells keep their
 * scores: a run's result survives its episodes.
 */
export async function purgeEpisodes(
  sql: SqlConnection,
  key: ChainKey,
  tenantId: string,
  episodeIds: string[],
  policy: { reason: PurgeReason; retentionDays: number; cutoff: Date; skipped: number },
  at: Date,
): Promise<PurgeRecord> {
  const removed: Array<{ id: string; chainHead: string; stepCount: number; createdAt: number }> = [];
  const ledgerRows: Array<{ seq: number; mac: string }> = [];
  for (const id of episodeIds) {
    const episode = (await sql.get(PURGE_STATEMENTS.selectEpisodeForPurge, [id, tenantId])) as (typeof removed)[number] | undefined;
    if (!episode) continue;
    removed.push(episode);
    // Its entries in both places (ledger-rows.ts): its steps' are removed with its log rows, the rest with it.
    ledgerRows.push(...(await selectLedgerEntriesOfEpisode(sql, tenantId, id)).map(({ seq, mac }) => ({ seq, mac })));
  }
  const record: PurgeRecord = { ...emptyPurge(tenantId), retentionDays: policy.retentionDays, cutoff: policy.cutoff.toISOString(), skipped: policy.skipped };
  if (removed.length === 0) return record;

  const gaps = gapsOf(ledgerRows);
  let steps = 0;
  for (const e of removed) steps += (await sql.get<{ n: number }>(PURGE_STATEMENTS.countActionRows, [e.id, tenantId]))!.n;
  // Appended while the removed entries are still there: the ledger's head may be one of them, and the purge entry
  // must take the next seq and chain to it.
  const facts = { reason: policy.reason, retentionDays: policy.retentionDays, cutoff: policy.cutoff, episodes: removed.length, steps, gaps, episodesDigest: episodesDigest(removed) };
  const entry = await appendLedgerEntry(sql, key, tenantId, purgedEntry(facts, at));

  await deleteEpisodesWithTheirRows(sql, tenantId, removed.map((e) => e.id), policy.reason);
  for (const gap of gaps) await sql.run(PURGE_STATEMENTS.insertLedgerGap, [tenantId, gap.firstSeq, gap.lastSeq, gap.lastMac, entry.seq]);

  const created = removed.map((e) => e.createdAt).sort((a, b) => a - b);
  Object.assign(record, {
    episodes: removed.length,
    steps,
    ledgerEntries: ledgerRows.length,
    ledgerSeq: entry.seq,
    firstCreatedAt: new Date(created[0]).toISOString(),
    lastCreatedAt: new Date(created[created.length - 1]).toISOString(),
    chainHeads: Object.fromEntries(removed.map((e) => [e.id, e.chainHead])),
  });
  const detail = {
    reason: record.reason,
    retention_days: record.retentionDays,
    cutoff: record.cutoff,
    episodes: record.episodes,
    steps: record.steps,
    ledger_entries: record.ledgerEntries,
    skipped: record.skipped,
    ledger_seq: record.ledgerSeq,
    first_created_at: record.firstCreatedAt,
    last_created_at: record.lastCreatedAt,
    chain_heads: record.chainHeads,
  };
  await sql.run(PURGE_STATEMENTS.insertAdminEvent, [at, 'episodes.purged', tenantId, JSON.stringify(detail)]);
  return record;
}

/**
 * Deletes episodes with everything stored about them (idempotency rows, tags, seal, log rows with their ledger
 * entries, other ledger entries), through the purge guard: the one path the append-only triggers admit.
 */
export async function deleteEpisodesWithTheirRows(sql: SqlConnection, tenantId: string, episodeIds: string[], reason: string): Promise<void> {
  await sql.run(PURGE_STATEMENTS.openGuard, [reason]);
  for (const id of episodeIds) {
    await sql.run(PURGE_STATEMENTS.deleteStepRequests, [id, tenantId]);
    await sql.run(PURGE_STATEMENTS.deleteEpisodeTags, [id, tenantId]);
    await sql.run(PURGE_STATEMENTS.deleteLegacySeal, [id, tenantId]);
    await sql.run(PURGE_STATEMENTS.deleteActionRows, [id, tenantId]);
    await sql.run(PURGE_STATEMENTS.deleteLedgerEntriesOfEpisode, [tenantId, id]);
    await sql.run(PURGE_STATEMENTS.deleteActiveState, [id, tenantId]);
    await sql.run(PURGE_STATEMENTS.deleteEpisode, [id, tenantId]);
  }
  await sql.run(PURGE_STATEMENTS.closeGuard);
}

/** A purge that removed nothing. */
export function emptyPurge(tenantId: string): PurgeRecord {
  return {
    tenantId,
    reason: 'retention',
    retentionDays: null,
    cutoff: null,
    skipped: 0,
    episodes: 0,
    steps: 0,
    ledgerEntries: 0,
    ledgerSeq: null,
    firstCreatedAt: null,
    lastCreatedAt: null,
    chainHeads: {},
  };
}

/** The ids of up to `limit` finished episodes of a tenant last written before `cutoff`, the earliest created first. */
export async function selectExpiredEpisodes(sql: SqlConnection, tenantId: string, cutoff: Date, limit: number): Promise<string[]> {
  return ((await sql.all(PURGE_STATEMENTS.selectExpiredEpisodes, [cutoff, tenantId, limit])) as Array<{ id: string }>).map((r) => r.id);
}

/** Sets (null: clears) a tenant's retention period and records it in the admin log; the caller signs it in the ledger. */
export async function setRetentionRow(sql: SqlConnection, tenantId: string, days: number | null, at: Date): Promise<void> {
  await sql.run(PURGE_STATEMENTS.updateRetention, [days, tenantId]);
  const detail = { retention_days: days === null ? 'none' : String(days) };
  await sql.run(PURGE_STATEMENTS.insertAdminEvent, [at, 'tenant.retention_set', tenantId, JSON.stringify(detail)]);
}
