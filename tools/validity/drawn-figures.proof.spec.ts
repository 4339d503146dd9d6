import type { GraderVersion } from '../../src/engine/grader-version';
import { familyIds } from '../../src/families';
import { SETS } from './drawn-figures';
import { drawnFixtures, measureDrawn } from './drawn-suite';

/*
 * Every grader version's figures on every drawn reply set (drawn-figures.ts): the record of each exam, held in CI
 * (npm run test:slow); npm test holds the current version's (drawn-suite.spec.ts).
 */

const ids = familyIds();

describe.each(SETS.flatMap(([set, figures]) => Object.keys(figures).map(Number).map((version) => [set, version as GraderVersion, figures] as const)))('%s under grader version %s', (set, version, figures) => {
  it.each(ids.map((id) => [id] as const))('%s: the figures are the documented ones', (id) => {
    const fixture = drawnFixtures(id).find((f) => f.set === set)!;
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
