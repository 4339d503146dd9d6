import type { Action } from '../engine/actions';
import { canonicalJson, sha256Hex } from '../common/canonical-json';

/** The hash that precedes an episode's first action-log row. */
export const CHAIN_GENESIS = '0'.repeat(64);

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

/**
 * sha256 over the previous row's hash and the canonical JSON of this row. Changing, removing or reordering
 * any row changes every hash after it, so the first row whose stored hash disagrees is where tampering starts.
 */
export function chainHash(previousHash: string, row: ChainedRow): string {
  const body = canonicalJson({
    episode_id: row.episodeId,
    step: row.stepIndex,
    action: row.action,
    reward_milli: row.rewardMilli,
    score_after_milli: row.scoreAfterMilli,
    outcome: row.outcome,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  });
  return sha256Hex(`${previousHash}\n${body}`);
}
