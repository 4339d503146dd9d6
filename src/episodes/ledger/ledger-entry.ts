import { canonicalJson, sha256Hex } from '../../common/canonical-json';
import { hmac, metadataRecord, type ChainKey, type EpisodeMetadata } from '../hash-chain';

/*
 * The tenant ledger: every episode created, step applied, episode expired or enrolled, every retention period set
 * and every purge, as one row in a per-tenant sequence (1, 2, 3…), each MACed under the chain key over the previous row's MAC. An episode's own
 * chain shows that its rows were not changed; the ledger shows that none of the tenant's rows or episodes went missing and
 * that no episode was played twice from an earlier copy (a rewind: its old step rows stay in the ledger). Cutting
 * the ledger's own tail is caught by checkpoints written outside the database (ledger-checkpoints.ts).
 */

export const LEDGER_KINDS = ['episode.created', 'step', 'episode.expired', 'episode.enrolled', 'episodes.purged', 'tenant.retention'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** The MAC before a tenant's first entry. */
export const LEDGER_GENESIS = '0'.repeat(64);

/** An entry as stored (ledger_entries), its body as canonical JSON. */
export interface LedgerEntry {
  tenantId: string;
  seq: number;
  kind: LedgerKind;
  episodeId: string;
  stepIndex: number;
  body: string;
  keyId: string;
  mac: string;
  createdAt: Date;
}

/** What an entry says, before it has a place in the sequence. */
export type LedgerEntryDraft = Pick<LedgerEntry, 'kind' | 'episodeId' | 'stepIndex' | 'createdAt'> & { body: Record<string, unknown> };

/** The MAC of an entry, over the previous entry's MAC (LEDGER_GENESIS before the first) and every stored field. */
export function ledgerMac(key: ChainKey, previousMac: string, entry: Omit<LedgerEntry, 'mac' | 'keyId'>): string {
  const fields = [previousMac, entry.tenantId, entry.seq, entry.kind, entry.episodeId, entry.stepIndex, entry.createdAt.toISOString(), entry.body];
  return hmac(key, `supportdesk/ledger/v1\n${fields.join('\n')}`);
}

export function canonicalBody(draft: LedgerEntryDraft): string {
  return canonicalJson(draft.body);
}

/** What the ledger records of an episode when it is created (or enrolled): its chained metadata and how it runs. */
export interface EpisodeFacts {
  metadata: EpisodeMetadata;
  feedback: string;
  chainScheme: string;
  chainKeyId: string | null;
}

/**
 * A created entry commits to a digest of the episode's facts, not to the facts themselves: the episode row holds them
 * and verify recomputes the digest, so the entry costs about 90 bytes instead of about 400 (the chain's start follows
 * from the facts under the chain key). Entries of earlier releases hold the facts and their chain_start.
 */
export function createdEntry(facts: EpisodeFacts): LedgerEntryDraft {
  return { kind: 'episode.created', episodeId: facts.metadata.episodeId, stepIndex: 0, createdAt: facts.metadata.createdAt, body: { facts_sha256: factsDigest(facts) } };
}

export function factsDigest(facts: EpisodeFacts): string {
  return sha256Hex(canonicalJson(factsRecord(facts)));
}

export function enrolledEntry(facts: EpisodeFacts, steps: number, chainHead: string, status: string, at: Date): LedgerEntryDraft {
  return { kind: 'episode.enrolled', episodeId: facts.metadata.episodeId, stepIndex: 0, createdAt: at, body: { ...factsRecord(facts), steps, chain_head: chainHead, status } };
}

export function stepEntry(episodeId: string, stepIndex: number, rowHash: string, status: string, at: Date): LedgerEntryDraft {
  return { kind: 'step', episodeId, stepIndex, createdAt: at, body: { row_hash: rowHash, status } };
}

export function expiredEntry(episodeId: string, at: Date): LedgerEntryDraft {
  return { kind: 'episode.expired', episodeId, stepIndex: 0, createdAt: at, body: {} };
}

export function factsRecord(facts: EpisodeFacts) {
  return { ...metadataRecord(facts.metadata), feedback: facts.feedback, chain_scheme: facts.chainScheme, chain_key_id: facts.chainKeyId };
}
