import type { GraderVersion } from '../../src/engine/grader-version';
import { CURRENT_GRADER_VERSION } from '../../src/engine/graders';
import { familyIds } from '../../src/families';
import { SETS } from './drawn-figures';
import { disagreements, drawnFixtures, drawnTask, measureDrawn } from './drawn-suite';

/*
 * The reply sets written on drawn instances (tools/validity/drawn-suite.ts): what each must hold to measure anything
 * (issue 23: at least 40 correct and 40 adversarial replies over at least 10 drawn seeds, train and test, in at least
 * three styles, with the writer's brief committed), and the figures the development set gives the current grader,
 * held here so a change that moves them is seen (docs/validity.md, "Drawn instances").
 */

const ids = familyIds();

describe.each(ids.map((id) => [id] as const))('%s drawn sets', (id) => {
  const fixtures = drawnFixtures(id);

  it('has a development set', () => {
    expect(fixtures.map((f) => f.set)).toContain('drawn-dev');
  });

  it.each(fixtures.map((f) => [f.set, f] as const))('%s: 40+ correct and 40+ adversarial replies over 10+ seeds of both splits, 3+ styles, a committed brief', (_set, fixture) => {
    const correct = fixture.instances.flatMap((i) => i.correct);
    const adversarial = fixture.instances.flatMap((i) => i.adversarial);
    expect(correct.length).toBeGreaterThanOrEqual(40);
    expect(adversarial.length).toBeGreaterThanOrEqual(40);
    expect(new Set(fixture.instances.map((i) => i.seed)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(fixture.instances.map((i) => i.split))).toEqual(new Set(['train', 'test']));
    for (const instance of fixture.instances) expect([instance.seed, instance.split]).toEqual([instance.seed, instance.seed % 5 === 0 ? 'test' : 'train']);
    expect(new Set(correct.map((r) => r.style)).size).toBeGreaterThanOrEqual(3);
    expect(new Set([...correct, ...adversarial].map((r) => r.id)).size).toBe(correct.length + adversarial.length);
    expect(fixture.brief).toMatch(/^tools\/validity\/briefs\/.+\.md$/);
  });

  it.each(fixtures.map((f) => [f.set, f] as const))("%s: every instance's target ticket is the one its writer answered", (_set, fixture) => {
    for (const instance of fixture.instances) expect(drawnTask(fixture, instance.seed).answer_key.target_ticket_id).toBe(instance.target_ticket);
  });
});

// The figures are in drawn-figures.ts: the current grader's are checked here, every version's in CI
// (drawn-figures.proof.spec.ts, npm run test:slow).

describe.each(SETS.flatMap(([set, figures]) => [CURRENT_GRADER_VERSION].filter((v) => figures[v] !== undefined).map((version) => [set, version as GraderVersion, figures] as const)))('%s under grader version %s', (set, version, figures) => {
  it.each(ids.map((id) => [id] as const))('%s: the writer read every instance as the answer key does, and the figures are the documented ones', (id) => {
    const fixture = drawnFixtures(id).find((f) => f.set === set)!;
    expect(disagreements(fixture)).toEqual([]);
    const r = measureDrawn(fixture, version);
    expect({
      correct: r.correct.length,
      missed: r.falseNegatives.filter((o) => r.correct.includes(o)).length,
      adversarial: r.adversarial.length,
      credited: r.unearned.length,
      penalised: r.correct.filter((o) => o.penalties.length > 0).length,
    }).toEqual(figures[version][id]);
  });
});
