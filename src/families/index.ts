import type { TaskFamily } from './kit';
import { billingDuplicateCharge, billingDuplicateChargeV2, billingDuplicateChargeV3 } from './billing_duplicate_charge/family';
import { logisticsMissingOrderVip, logisticsMissingOrderVipV2, logisticsMissingOrderVipV3, logisticsMissingOrderVipV4 } from './logistics_missing_order_vip/family';
import { securityCompromisedAccount, securityCompromisedAccountV2, securityCompromisedAccountV3, securityCompromisedAccountV4, securityCompromisedAccountV5, securityCompromisedAccountV6 } from './security_compromised_account/family';

export { SPLITS, SPLIT_RULE, SPLIT_SOURCES, generatorVersionId, nthSeedOf, parseGeneratorVersion, seedIn, splitOf, type Split, type SplitSource, type TaskFamily } from './kit';

/**
 * The registry: every task family, one line each, with every generator version still runnable (a retired version
 * stays here so the episodes it drew replay and verify). The newest version of each draws new episodes. A family is
 * its folder, src/families/<id>/ (docs/tasks.md, "Adding a family"); everything else — the catalogue, /tasks, the
 * OpenAPI enums, the baseline, the validity tools and the per-family suite — iterates this list.
 *
 * Generator version 2 of each family draws version 1's instance with the family's task lexicon declared in it
 * (`answer_key.lexicon`, the words grader version 3 reads from the task), and so does its canonical instance. A new
 * episode gets the current grader if it grades the task (src/engine/graders/index.ts, `graderVersionOf`): version 3.
 * g1 episodes keep version 2 (version 3 grades only tasks that declare a lexicon). Security's generator version 3
 * also draws clocks in May, which its versions 1 and 2 skipped for grader version 2's sake. Billing's generator version 3
 * draws six kinds of duplicate-charge case told apart only by reading (issue 23, a low prior), and so do logistics'
 * generator version 4 (six kinds of missing-order case) and security's generator version 4 (six kinds of account case);
 * security's generator version 5 splits the takeover by what the intruder did, adds a customer stopped at their own MFA
 * code, and sets the priority and team from more of the knowledge base's figures; its generator version 6 draws the
 * support-tier desk of each tier per instance (the triage article's desk rota), so the tier tells no team.
 */
const REGISTRY: readonly TaskFamily[] = [
  billingDuplicateCharge,
  billingDuplicateChargeV2,
  billingDuplicateChargeV3,
  securityCompromisedAccount,
  securityCompromisedAccountV2,
  securityCompromisedAccountV3,
  securityCompromisedAccountV4,
  securityCompromisedAccountV5,
  securityCompromisedAccountV6,
  logisticsMissingOrderVip,
  logisticsMissingOrderVipV2,
  logisticsMissingOrderVipV3,
  logisticsMissingOrderVipV4,
];

export function families(): readonly TaskFamily[] {
  return REGISTRY;
}

/** The family ids, each once (a family with several generator versions registers each). */
export function familyIds(): string[] {
  return [...new Set(REGISTRY.map((f) => f.id))];
}

export function familyVersion(id: string, version: number): TaskFamily | undefined {
  return REGISTRY.find((f) => f.id === id && f.generatorVersion === version);
}

export function latestFamily(id: string): TaskFamily | undefined {
  return REGISTRY.filter((f) => f.id === id).sort((a, b) => b.generatorVersion - a.generatorVersion)[0];
}

/** The newest version of every family, in registry order. */
export function latestFamilies(): TaskFamily[] {
  return familyIds().map((id) => latestFamily(id)!);
}
