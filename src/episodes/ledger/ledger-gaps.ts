import { createHash } from 'node:crypto';
import { canonicalJson } from '../../common/canonical-json';
import type { LedgerEntryDraft } from './ledger-entry';

/*
 * Purged stretches of a tenant ledger. A purge removes its episodes' entries and keeps, for each run of consecutive
 * removed entries, the MAC of the run's last entry (so the entry after it still chains to something verify can
 * check) — and appends an "episodes.purged" entry whose MACed body carries a digest of those runs. Someone who
 * deletes entries cannot make a gap pass: it needs a purge entry that names it, and that needs the key.
 */

/** A run of removed entries [firstSeq, lastSeq] and the MAC the entry after it chains to. */
export interface LedgerGap {
  firstSeq: number;
  lastSeq: number;
  lastMac: string;
  /** The seq of the "episodes.purged" entry that commits to this gap. */
  purgeSeq: number;
}

export type LedgerGapDraft = Omit<LedgerGap, 'purgeSeq'>;

/** The maximal runs of consecutive seqs among removed entries, each with the MAC of its last entry. */
export function gapsOf(removed: Array<{ seq: number; mac: string }>): LedgerGapDraft[] {
  const sorted = [...removed].sort((a, b) => a.seq - b.seq);
  const gaps: LedgerGapDraft[] = [];
  for (const entry of sorted) {
    const last = gaps[gaps.length - 1];
    if (last && entry.seq === last.lastSeq + 1) {
      last.lastSeq = entry.seq;
      last.lastMac = entry.mac;
    } else {
      gaps.push({ firstSeq: entry.seq, lastSeq: entry.seq, lastMac: entry.mac });
    }
  }
  return gaps;
}

/** What a purge entry commits to about its gaps: sha256 of their canonical list, in seq order. */
export function gapsDigest(gaps: LedgerGapDraft[]): string {
  const list = [...gaps].sort((a, b) => a.firstSeq - b.firstSeq).map((g) => [g.firstSeq, g.lastSeq, g.lastMac]);
  return createHash('sha256').update(canonicalJson(list), 'utf8').digest('hex');
}

/** Why entries were purged. */
export type PurgeReason = 'retention';

/** What the ledger records of a purge: the policy it applied, counts and digests, never the removed data. */
export interface PurgeFacts {
  reason: PurgeReason;
  /** The retention period applied, and the cut-off it gave: episodes that ended before it were purged. */
  retentionDays: number;
  cutoff: Date;
  episodes: number;
  steps: number;
  gaps: LedgerGapDraft[];
  /** sha256 of the canonical list of [episode id, chain head] of the removed episodes, sorted by id. */
  episodesDigest: string;
}

export function purgedEntry(facts: PurgeFacts, at: Date): LedgerEntryDraft {
  const entries = facts.gaps.reduce((n, g) => n + g.lastSeq - g.firstSeq + 1, 0);
  return {
    kind: 'episodes.purged',
    episodeId: '',
    stepIndex: 0,
    createdAt: at,
    body: {
      reason: facts.reason,
      retention_days: facts.retentionDays,
      cutoff: facts.cutoff.toISOString(),
      episodes: facts.episodes,
      steps: facts.steps,
      entries,
      gaps: facts.gaps.length,
      gaps_digest: gapsDigest(facts.gaps),
      episodes_digest: facts.episodesDigest,
    },
  };
}

/** The gaps digest a purge entry's body commits to; null when the body is not one (a tampered row). */
export function committedGapsDigest(body: string): string | null {
  try {
    const digest = (JSON.parse(body) as { gaps_digest?: unknown }).gaps_digest;
    return typeof digest === 'string' ? digest : null;
  } catch {
    return null;
  }
}

export function episodesDigest(removed: Array<{ id: string; chainHead: string }>): string {
  const list = [...removed].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).map((e) => [e.id, e.chainHead]);
  return createHash('sha256').update(canonicalJson(list), 'utf8').digest('hex');
}

/**
 * The tenant's gaps by first seq, for walking a ledger: `after(seq)` follows consecutive gaps from `seq` and says
 * where the walk lands and which MAC the entry there chains to (null when no gap starts at `seq`).
 */
export class GapIndex {
  private readonly byFirst = new Map<number, LedgerGap>();

  constructor(gaps: LedgerGap[]) {
    for (const gap of gaps) this.byFirst.set(gap.firstSeq, gap);
  }

  after(seq: number): { next: number; mac: string; gaps: LedgerGap[] } | null {
    const crossed: LedgerGap[] = [];
    let cursor = seq;
    // Only a well-formed gap moves the walk, and always forward: a row made up to point backwards (last before
    // first) is never crossed, so verify reports it instead of walking in circles.
    for (let gap = this.byFirst.get(cursor); gap && gap.lastSeq >= gap.firstSeq; gap = this.byFirst.get(cursor)) {
      crossed.push(gap);
      cursor = gap.lastSeq + 1;
    }
    if (crossed.length === 0) return null;
    return { next: cursor, mac: crossed[crossed.length - 1].lastMac, gaps: crossed };
  }

  /** The gap containing `seq`, if any. */
  containing(seq: number): LedgerGap | null {
    for (const gap of this.byFirst.values()) if (gap.firstSeq <= seq && seq <= gap.lastSeq) return gap;
    return null;
  }

  get all(): LedgerGap[] {
    return [...this.byFirst.values()];
  }
}
