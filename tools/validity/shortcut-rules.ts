/*
 * How the shortcut agents (shortcuts.ts) learn on train instances, as plain arithmetic over a score matrix, so the
 * learning can be tested on made-up matrices: `scores[d][i]` is what decision d earns on train instance i, `labels[i]`
 * the decision the answer key asks of instance i, `features[i]` what an agent sees on its ticket without reading.
 * Ties go to the earlier decision and the alphabetically first feature, so the result is the same on every machine.
 */

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

function argmax(values: readonly number[]): number {
  let best = 0;
  for (let d = 1; d < values.length; d++) if (values[d] > values[best]) best = d;
  return best;
}

/** The decision the answer key asks most often (its index in `decisions`, which list every label). */
export function mostCommonDecision(labels: readonly number[], decisionCount: number): number {
  const counts = new Array<number>(decisionCount).fill(0);
  for (const label of labels) counts[label] += 1;
  return argmax(counts);
}

/** The decision with the best mean score over the train instances. */
export function bestFixedDecision(scores: readonly (readonly number[])[]): number {
  return argmax(scores.map(sum));
}

/** "If the ticket shows `feature` then decision `present`, else decision `absent`", and its mean on train. */
export interface FeatureRule {
  feature: string;
  present: number;
  absent: number;
  trainMean: number;
}

/**
 * Every feature seen on some train instances but not all, each with the best decision where it is present and
 * the best where it is absent (both learned on train): the rules in order of train mean, best first. A feature on
 * every instance or none is the fixed rule, already measured.
 */
export function featureRules(scores: readonly (readonly number[])[], features: readonly ReadonlySet<string>[]): FeatureRule[] {
  const n = features.length;
  const totals = scores.map(sum);
  const where = new Map<string, number[]>();
  features.forEach((set, i) => set.forEach((f) => where.set(f, [...(where.get(f) ?? []), i])));
  const rules: FeatureRule[] = [];
  for (const [feature, instances] of where) {
    if (instances.length === n) continue;
    // Where it is present, each decision's total; where it is absent, the rest of that decision's total.
    const inside = scores.map((row) => instances.reduce((s, i) => s + row[i], 0));
    const present = argmax(inside);
    const absent = argmax(totals.map((total, d) => total - inside[d]));
    rules.push({ feature, present, absent, trainMean: (inside[present] + totals[absent] - inside[absent]) / n });
  }
  return rules.sort((a, b) => b.trainMean - a.trainMean || (a.feature < b.feature ? -1 : 1));
}

/** Which decision a rule plays on an instance with these features. */
export function ruleDecision(rule: FeatureRule, features: ReadonlySet<string>): number {
  return features.has(rule.feature) ? rule.present : rule.absent;
}
