import { bestFixedDecision, featureRules, mostCommonDecision, ruleDecision } from './shortcut-rules';
import { SHORTCUT_BOUNDS, shortcutBoundBreaches, type ShortcutFigures } from './shortcuts';

/*
 * The shortcut agents' instrument (tools/validity/shortcuts.ts; docs/validity.md, "Shortcut agents"): it learns what
 * is there to learn, and the target bounds are stated and checked. Its measurement of every family, the pinned
 * figures and the bounds the families meet, take a minute and run in CI beside npm test (npm run test:slow:
 * shortcut-figures.proof.spec.ts).
 */

describe('learning on a made-up score matrix', () => {
  // Two cases, told apart by the planted feature "planted"; decision 0 is right on case x, 1 on case y, 2 never.
  const cases = ['x', 'x', 'x', 'y', 'y', 'x', 'y', 'x'];
  const scores = [cases.map((c) => (c === 'x' ? 1000 : 300)), cases.map((c) => (c === 'y' ? 1000 : 200)), cases.map(() => 500)];
  const features = cases.map((c, i) => new Set([`word:${i % 2}`, 'everywhere', ...(c === 'y' ? ['planted'] : [])]));

  it('the most common decision and the best fixed one are what the labels and scores say', () => {
    expect(mostCommonDecision([1, 1, 0, 2, 1], 3)).toBe(1);
    expect(bestFixedDecision(scores)).toBe(0);
  });

  it('the best one-feature rule keys on the planted feature, scores 1.0 where the fixed rule does not, and ignores a feature on every instance', () => {
    const [best] = featureRules(scores, features);
    expect(best).toEqual({ feature: 'planted', present: 1, absent: 0, trainMean: 1000 });
    expect(cases.map((_, i) => ruleDecision(best, features[i]))).toEqual(cases.map((c) => (c === 'x' ? 0 : 1)));
    const fixedMean = scores[bestFixedDecision(scores)].reduce((a, b) => a + b, 0) / cases.length;
    expect(fixedMean).toBeLessThan(best.trainMean);
    expect(featureRules(scores, features).map((r) => r.feature)).not.toContain('everywhere');
  });
});

describe('the bounds', () => {
  const figures = (means: [number, number, number], atOne: [number, number, number]): ShortcutFigures => ({
    familyId: 'made_up',
    trainSeeds: 10,
    testSeeds: 10,
    decisions: 3,
    agents: (['most-common', 'best-fixed', 'best-single-feature'] as const).map((agent, i) => ({ agent, rule: '-', trainMean: 0, testMean: means[i], testAtOne: atOne[i], testScores: [] })),
  });

  it('are the target figures: 0.30, 0.30, 0.40, and 1.0 on at most 2% of test seeds', () => {
    expect(SHORTCUT_BOUNDS).toEqual({ mostCommon: 0.3, bestFixed: 0.3, bestSingleFeature: 0.4, shareAtOne: 0.02 });
  });

  it('are met at the bounds and broken just past each', () => {
    expect(shortcutBoundBreaches(figures([0.3, 0.3, 0.4], [0.02, 0.02, 0.02]))).toEqual([]);
    expect(shortcutBoundBreaches(figures([0.31, 0.2, 0.41], [0, 0.03, 0]))).toEqual([
      'made_up: most-common means 0.310 on test, over 0.3',
      'made_up: best-fixed scores 1.0 on 3.0% of test seeds, over 2%',
      'made_up: best-single-feature means 0.410 on test, over 0.4',
    ]);
    expect(shortcutBoundBreaches({ ...figures([0, 0, 0], [0, 0, 0]), agents: [] })).toHaveLength(3);
  });
});

