import { billingDuplicateCharge } from './billing-duplicate-charge.family';
import type { TaskFamily } from './family';
import { logisticsMissingOrderVip } from './logistics-missing-order-vip.family';
import { securityCompromisedAccount } from './security-compromised-account.family';

export { generatorVersionId, parseGeneratorVersion, type TaskFamily } from './family';

/**
 * Every family, by id, with every generator version still runnable (a retired version stays here so the episodes
 * it drew replay and verify). The newest version of each draws new episodes.
 */
const ALL: readonly TaskFamily[] = [billingDuplicateCharge, securityCompromisedAccount, logisticsMissingOrderVip];

export function families(): readonly TaskFamily[] {
  return ALL;
}

export function familyVersion(id: string, version: number): TaskFamily | undefined {
  return ALL.find((f) => f.id === id && f.generatorVersion === version);
}

export function latestFamily(id: string): TaskFamily | undefined {
  return ALL.filter((f) => f.id === id).sort((a, b) => b.generatorVersion - a.generatorVersion)[0];
}

export { SPLITS, SPLIT_RULE, nthSeedOf, seedIn, splitOf, type Split } from './splits';
