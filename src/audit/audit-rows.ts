import type { ActionLog, Episode, LegacyChainSeal } from '../generated/prisma/client';

/** An episode without its state snapshot: what listings and summaries need. */
export type EpisodeSummaryRow = Omit<Episode, 'stateJson'>;

/** An episode row with its legacy seal, if it has one: what verify needs. */
export type EpisodeWithSeal = Episode & { legacySeal: LegacyChainSeal | null };

/** One action-log row as audits read it. */
export type ActionRow = Omit<ActionLog, 'id' | 'tenantId'>;
