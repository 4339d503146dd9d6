import { compareCodeUnits } from './code-unit-order';

/**
 * Leaderboard tiers, formed top-down: entries by score (highest first, ties by id), the first leads tier 1, and
 * each next entry joins the current tier if it is within noise of that tier's leader, else leads a new tier.
 * "Within noise" is not transitive (A~B and B~C without A~C), so tiers are anchored on their leader rather than
 * chained through members: every member is within noise of its leader, and the result depends only on the
 * entries, never on their input order. Returns each id's tier, 1-based.
 */
export function formTiers(
  entries: ReadonlyArray<{ id: string; score: number }>,
  withinNoise: (leaderId: string, id: string) => boolean,
): Map<string, number> {
  const seen = new Set<string>();
  for (const { id, score } of entries) {
    if (seen.has(id)) throw new RangeError(`entry ${id} is given twice`);
    if (!Number.isFinite(score)) throw new RangeError(`entry ${id}: score must be a finite number, got ${score}`);
    seen.add(id);
  }
  const ranked = [...entries].sort((x, y) => y.score - x.score || compareCodeUnits(x.id, y.id));
  const tiers = new Map<string, number>();
  let tier = 0;
  let leader: string | null = null;
  for (const { id } of ranked) {
    if (leader === null || !withinNoise(leader, id)) {
      tier++;
      leader = id;
    }
    tiers.set(id, tier);
  }
  return tiers;
}
