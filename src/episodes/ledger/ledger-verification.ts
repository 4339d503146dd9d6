import { canonicalJson } from '../../common/canonical-json';
import type { ChainKey, EpisodeMetadata } from '../hash-chain';
import { factsDigest, factsRecord, LEDGER_GENESIS, ledgerMac, type LedgerEntry } from './ledger-entry';

/** The keys a private-split episode's metadata record adds (hash-chain.ts metadataRecord). */
const SPLIT_RECORD_KEYS = ['split_source', 'split_key_id'];

/** A ledger entry with the MAC of the entry before it (null when that entry is missing). */
export type LedgerEntryInContext = LedgerEntry & { previousMac: string | null };

/**
 * Entries of the tenant ledger missing between two consecutive entries of an episode, not accounted for by a purge
 * the ledger signed. A step's entry is stored in its log row (ledger-rows.ts), so deleting an episode's rows deletes
 * their entries too: what is left is a hole in the sequence, wherever later entries of the tenant follow it.
 */
export interface LedgerHole {
  afterSeq: number;
  beforeSeq: number;
  missing: number;
}

/**
 * An episode's entries in its tenant ledger, the holes between them, and the purge entries whose gaps were taken to
 * account for missing entries (each with the MAC before it, so that its own MAC is checked too).
 */
export interface EpisodeLedger {
  entries: LedgerEntryInContext[];
  holes: LedgerHole[];
  purges: LedgerEntryInContext[];
}

/** What verify knows of an episode, to hold against its ledger entries. */
export interface EpisodeAsStored {
  metadata: EpisodeMetadata;
  feedback: string;
  chainScheme: string;
  chainKeyId: string | null;
  status: string;
  /** The hashes of its action-log rows, in step order. */
  rowHashes: string[];
}

export interface LedgerFinding {
  index: number;
  problem: string;
}

/** Whether the entry's MAC holds over the previous entry's MAC, under the key it names. */
export function entryMacHolds(entry: LedgerEntryInContext, keyById: (id: string) => ChainKey | null): string | null {
  const previous = entry.seq === 1 ? LEDGER_GENESIS : entry.previousMac;
  if (previous === null) return `ledger entry ${entry.seq - 1} of the tenant is missing`;
  const key = keyById(entry.keyId);
  if (!key) return `ledger entry ${entry.seq} was made with key ${entry.keyId}, which this server does not hold (add it to CHAIN_RETIRED_KEYS_FILE)`;
  const { mac: _mac, keyId: _keyId, ...unsigned } = entry;
  return ledgerMac(key, previous, unsigned) === entry.mac ? null : `ledger entry ${entry.seq} does not match its MAC`;
}

/**
 * An episode held against its entries in the tenant ledger: it is there (created or enrolled) with the metadata,
 * feedback mode and chain it has now, every logged row is there once and in order (a row the ledger has and the
 * log lacks was deleted; a step recorded twice was played again from an earlier copy: a rewind), an expired status
 * was recorded as an expiry, and no entry of the tenant is missing between its entries (deleted rows, of this
 * episode or another: a rewind deletes the replaced steps' rows, and their entries with them). Null when it all holds.
 */
export function episodeLedgerFinding(episode: EpisodeAsStored, ledger: EpisodeLedger, keyById: (id: string) => ChainKey | null): LedgerFinding | null {
  const { entries } = ledger;
  if (entries.length === 0) {
    return { index: 0, problem: 'the episode is not in its tenant ledger: stored before the ledger and not enrolled yet (POST /admin/ledger/enroll), or written without the key' };
  }
  for (const entry of entries) {
    const broken = entryMacHolds(entry, keyById);
    if (broken) return { index: entry.stepIndex, problem: broken };
  }
  // A gap counts only through the purge entry that commits to it; an entry written without the key proves nothing.
  for (const purge of ledger.purges) {
    const broken = entryMacHolds(purge, keyById);
    if (broken) return { index: 0, problem: `the purge (ledger entry ${purge.seq}) that accounts for entries missing around this episode's does not hold: ${broken}` };
  }
  const replayed = firstStepRecordedTwice(entries);
  if (replayed !== null) {
    return { index: replayed, problem: `the ledger records step ${replayed} twice: the episode was played again from an earlier copy (a rewind)` };
  }
  const [first, ...rest] = entries;
  if (first.kind !== 'episode.created' && first.kind !== 'episode.enrolled') {
    return { index: 0, problem: `the episode's first ledger entry is a ${first.kind}, not its creation` };
  }
  const body = JSON.parse(first.body) as Record<string, unknown>;
  if (!factsMatch(episode, body)) {
    return { index: 0, problem: "the episode's metadata, feedback mode or chain differ from what its tenant ledger recorded at its creation" };
  }
  let step = first.kind === 'episode.enrolled' ? (body.steps as number) : 0;
  if (first.kind === 'episode.enrolled' && step > 0 && episode.rowHashes[step - 1] !== body.chain_head) {
    return { index: step, problem: 'the rows logged before the episode was enrolled differ from what the ledger recorded' };
  }
  let expired = first.kind === 'episode.enrolled' && body.status === 'expired';
  for (const entry of rest) {
    if (entry.kind === 'episode.expired') {
      expired = true;
      continue;
    }
    if (entry.kind !== 'step') return { index: entry.stepIndex, problem: `the ledger records the episode created twice (entry ${entry.seq})` };
    if (entry.stepIndex <= step) {
      return { index: entry.stepIndex, problem: `the ledger records step ${entry.stepIndex} twice: the episode was played again from an earlier copy (a rewind)` };
    }
    if (entry.stepIndex !== step + 1) return { index: step + 1, problem: `the ledger has no entry for step ${step + 1}` };
    step = entry.stepIndex;
    const rowHash = (JSON.parse(entry.body) as { row_hash: string }).row_hash;
    if (episode.rowHashes[step - 1] === undefined) return { index: step, problem: `step ${step} is in the ledger but missing from the log` };
    if (episode.rowHashes[step - 1] !== rowHash) return { index: step, problem: `step ${step} of the log is not the one the ledger recorded` };
  }
  if (episode.rowHashes.length > step) return { index: step + 1, problem: `step ${step + 1} of the log was never recorded in the ledger` };
  if (episode.status === 'expired' && !expired) return { index: step, problem: 'the episode is marked expired, but its expiry is not in the ledger' };
  const [hole] = ledger.holes;
  if (hole) {
    const next = entries.find((e) => e.seq === hole.beforeSeq);
    return {
      index: next && next.stepIndex > 0 ? next.stepIndex : step,
      problem:
        `${hole.missing} entr${hole.missing === 1 ? 'y' : 'ies'} of the tenant ledger between this episode's entries ${hole.afterSeq} and ` +
        `${hole.beforeSeq} ${hole.missing === 1 ? 'is' : 'are'} missing: rows were deleted behind the server, this episode's steps played again ` +
        'from an earlier copy (a rewind) or another episode\'s; GET /ledger/verify names them',
    };
  }
  return null;
}

/**
 * Whether the episode's facts are the ones its first entry recorded: their digest (created entries since the ledger
 * moved into the log, ledger-entry.ts createdEntry) or the facts themselves (earlier created entries, enrolments).
 */
function factsMatch(episode: EpisodeAsStored, body: Record<string, unknown>): boolean {
  if (typeof body.facts_sha256 === 'string') return body.facts_sha256 === factsDigest(asFacts(episode));
  // The keys the episode's facts have now, and the split keys the entry recorded: a private episode relabelled public
  // has no split keys any more, and must not pass for want of them.
  const current = factsRecord(asFacts(episode));
  const keys = [...new Set([...Object.keys(current), ...SPLIT_RECORD_KEYS.filter((k) => k in body)])];
  return canonicalJson(Object.fromEntries(keys.map((k) => [k, body[k]]))) === canonicalJson(current);
}

function asFacts(episode: EpisodeAsStored) {
  return { metadata: episode.metadata, feedback: episode.feedback, chainScheme: episode.chainScheme, chainKeyId: episode.chainKeyId };
}

function firstStepRecordedTwice(entries: LedgerEntryInContext[]): number | null {
  const seen = new Set<number>();
  for (const entry of entries) {
    if (entry.kind !== 'step') continue;
    if (seen.has(entry.stepIndex)) return entry.stepIndex;
    seen.add(entry.stepIndex);
  }
  return null;
}
