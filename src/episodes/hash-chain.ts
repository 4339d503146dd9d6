import { createHash, createHmac } from 'node:crypto';
import type { Action } from '../engine/actions';
import { canonicalJson } from '../common/canonical-json';
import type { SplitSource } from '../families';

/*
 * The tamper-evident record of an episode. Since the keyed-chain release every episode is chained under HMAC with a
 * key that does not live in the database (CHAIN_KEY): its first link commits to the episode's metadata (tenant,
 * task and version, seed, agent, run label, tags, the key that started it, creation time), each action-log row to
 * the previous link. Someone who can write the database file but not read the key can neither rewrite rows nor
 * metadata without verify noticing. Episodes chained before then ("sha256-v1", unkeyed) were sealed under the key
 * by the admin right after the upgrade (see LegacyChainSeals); their later rows are keyed.
 */

/** How an episode's chain is computed. */
export const CHAIN_SCHEMES = { legacy: 'sha256-v1', keyed: 'hmac-sha256-v2' } as const;
export type ChainScheme = (typeof CHAIN_SCHEMES)[keyof typeof CHAIN_SCHEMES];

/** The link before an unkeyed (sha256-v1) episode's first row. */
export const CHAIN_GENESIS = '0'.repeat(64);

export interface ChainKey {
  /** `hk_` + 12 hex of the secret's SHA-256: names the key without revealing it. */
  id: string;
  secret: string;
}

export function chainKeyOf(secret: string): ChainKey {
  return { id: `hk_${createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 12)}`, secret };
}

/** What the first link of a keyed chain commits to. */
export interface EpisodeMetadata {
  episodeId: string;
  tenantId: string;
  taskId: string;
  taskVersion: string;
  seed: number;
  agent: string | null;
  runLabel: string | null;
  tags: string[];
  apiKeyId: string | null;
  createdAt: Date;
  /**
   * The test split the instance was drawn from (a SplitSource, as stored: any other value is committed to as it is),
   * and the id of the private-split key for a private one (else null).
   */
  splitSource: SplitSource | (string & {});
  splitKeyId: string | null;
}

export interface ChainedRow {
  episodeId: string;
  stepIndex: number;
  action: Action;
  rewardMilli: number;
  scoreAfterMilli: number;
  outcome: string;
  error: string | null;
  createdAt: Date;
}

/** The first link of a keyed chain: HMAC over the episode's metadata. */
export function chainStart(key: ChainKey, metadata: EpisodeMetadata): string {
  return hmac(key, `supportdesk/chain-start/v2\n${metadataJson(metadata)}`);
}

/**
 * The link of one action-log row: over the previous link and the canonical JSON of the row, so changing,
 * removing or reordering any row changes every link after it; keyed (HMAC) unless the row belongs to the
 * unkeyed part of a legacy chain.
 */
export function chainLink(key: ChainKey | null, previous: string, row: ChainedRow): string {
  const body = `${previous}\n${canonicalJson({
    episode_id: row.episodeId,
    step: row.stepIndex,
    action: row.action,
    reward_milli: row.rewardMilli,
    score_after_milli: row.scoreAfterMilli,
    outcome: row.outcome,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  })}`;
  return key ? hmac(key, body) : createHash('sha256').update(body, 'utf8').digest('hex');
}

/** The seal of a legacy episode: its metadata and its unkeyed chain up to `sealedSteps`, under the key. */
export function legacySeal(key: ChainKey, metadata: EpisodeMetadata, sealedSteps: number, sealedHead: string): string {
  return hmac(key, `supportdesk/legacy-seal/v2\n${metadataJson(metadata)}\n${sealedSteps}\n${sealedHead}`);
}

function metadataJson(m: EpisodeMetadata): string {
  return canonicalJson(metadataRecord(m));
}

/**
 * The metadata an episode's chain commits to, as the plain record that is hashed (the tenant ledger reuses it). The
 * split source and key id are part of the instance's identity, so a private episode's record names them; a public
 * one's record is exactly what it was before the private split existed, so every stored chain and ledger entry
 * verifies as it did (and relabelling an episode either way changes its record).
 */
export function metadataRecord(m: EpisodeMetadata) {
  const split = m.splitSource === 'public' && m.splitKeyId === null ? {} : { split_source: m.splitSource, split_key_id: m.splitKeyId };
  return {
    ...split,
    episode_id: m.episodeId,
    tenant_id: m.tenantId,
    task_id: m.taskId,
    task_version: m.taskVersion,
    seed: m.seed,
    agent: m.agent,
    run_label: m.runLabel,
    tags: m.tags,
    api_key_id: m.apiKeyId,
    created_at: m.createdAt.toISOString(),
  };
}

export function hmac(key: ChainKey, text: string): string {
  return createHmac('sha256', key.secret).update(text, 'utf8').digest('hex');
}
