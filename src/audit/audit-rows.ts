import type { ActionLog, Episode, LegacyChainSeal } from '../generated/prisma/client';

/** An episode without its state snapshot: what listings and summaries need. */
export type EpisodeSummaryRow = Omit<Episode, 'stateJson'>;

/** An episode row with its legacy seal, if it has one, and its tag rows (what filters read): what verify needs. */
export type EpisodeWithSeal = Episode & { legacySeal: LegacyChainSeal | null; tags: { tag: string }[] };

/** One action-log row as audits read it (its ledger entry, when it carries one, is read as the ledger's). */
export type ActionRow = Omit<ActionLog, 'tenantSerial' | 'ledgerSeq' | 'ledgerMac' | 'ledgerKeyId' | 'ledgerStatus' | 'createdAt' | 'hash'> & {
  createdAt: Date;
  /** Hex, as the chain is computed (stored as bytes). */
  hash: string;
};
