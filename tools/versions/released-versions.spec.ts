import { families } from '../../src/families';
import { GRADERS, isGraderVersion } from '../../src/engine/graders';
import { grade } from '../../src/engine/grader';
import { GRADER_VERSIONS } from '../../src/engine/grader-version';
import {
  corpusOutcomes, frozenSources, generatorHash, graderFolder, hashOf, readCorpus, readManifest, sourceHash, verdictHash, type GradeFunction,
} from './version-hashes';

/*
 * A released grader or generator version is frozen (src/engine/grader-version.ts): what it does is held to the
 * hashes of tools/versions/released-versions.json. A failure here means a change reached a released version, through
 * its own folder or through the code it shares with the engine; the fix is to undo it there and make the change a
 * new version, never to rewrite the hash (`npm run versions:freeze` refuses to).
 */

const manifest = readManifest();
const releasedGraders = GRADER_VERSIONS.filter((v) => GRADERS[v].released);

it('has a frozen entry for every released grader version and for no version the registry lacks', () => {
  expect(Object.keys(manifest.graders).map(Number).sort()).toEqual([...releasedGraders].sort());
  for (const v of Object.keys(manifest.graders).map(Number)) expect(isGraderVersion(v)).toBe(true);
});

// Every released version's verdicts on its frozen corpus are replayed in CI (released-verdicts.proof.spec.ts, `npm run
// test:slow`): the folders are frozen by the source hashes below, and the current version's verdicts on every
// fixture reply are pinned in npm test too (tools/validity/validity.spec.ts, drawn-suite.spec.ts).

describe.each(releasedGraders.map((v) => [v]))('released grader version %i', (version) => {
  const entry = manifest.graders[version];

  it('has the frozen sources', () => {
    const actual = sourceHash(graderFolder(version));
    if (actual !== frozenSources(entry)) {
      throw new Error(
        `released grader version ${version} changed: its sources are frozen (src/engine/graders/v${version} hashes to ${actual}, frozen as ` +
          `${frozenSources(entry)}). Leave that folder as it was and make the change a new grader version.`,
      );
    }
  });

  it('records a reason for every amendment of its sources, each to a new hash', () => {
    const hashes = [entry.sources, ...(entry.amendments ?? []).map((a) => a.sources)];
    expect(new Set(hashes).size).toBe(hashes.length);
    for (const amendment of entry.amendments ?? []) expect(amendment.reason.length).toBeGreaterThan(40);
  });
});

it('has a frozen entry for every registered generator version, and each draws the frozen instances', () => {
  const registered = families().map((f) => `${f.id} g${f.generatorVersion}`).sort();
  const frozen = Object.entries(manifest.generators).flatMap(([id, versions]) => Object.keys(versions).map((v) => `${id} g${v}`)).sort();
  // A registered generator version is one an episode may have drawn: it is frozen in the change that adds it.
  expect({ registered_but_not_frozen: registered.filter((r) => !frozen.includes(r)), frozen_but_not_registered: frozen.filter((f) => !registered.includes(f)) }).toEqual({
    registered_but_not_frozen: [],
    frozen_but_not_registered: [],
  });
  for (const [id, versions] of Object.entries(manifest.generators)) {
    for (const [version, entry] of Object.entries(versions)) {
      const actual = generatorHash(id, Number(version), entry.seeds);
      if (actual !== entry.instances) {
        throw new Error(
          `released generator ${id} g${version} changed: the instances it draws are frozen (seeds ${entry.seeds.length}, hash ${actual}, ` +
            `frozen as ${entry.instances}). Undo the change and make it a new generatorVersion (the old one stays registered).`,
        );
      }
    }
  }
});

describe('the check can fail', () => {
  // On the smallest corpus: the hash is computed alike for every version.
  const version = [...releasedGraders].sort((a, b) => manifest.graders[a].cases - manifest.graders[b].cases)[0];
  const entry = manifest.graders[version];
  const corpus = readCorpus(entry.corpus);

  it('one case scored one milli-point differently changes it', () => {
    let first = true;
    const altered: GradeFunction = (task, state) => {
      const breakdown = grade(task, state);
      if (!first) return breakdown;
      first = false;
      return { ...breakdown, score_milli: breakdown.score_milli + 1 };
    };
    expect(verdictHash(corpus, altered)).not.toBe(entry.verdicts);
  });

  it('a reply judged differently in one case changes it', () => {
    const outcomes = corpusOutcomes(corpus) as { grade: { reply_details: { covered: boolean }[] } }[];
    expect(hashOf(outcomes)).toBe(entry.verdicts);
    const judged = outcomes.find((o) => o.grade.reply_details.length > 0)!;
    judged.grade.reply_details[0].covered = !judged.grade.reply_details[0].covered;
    expect(hashOf(outcomes)).not.toBe(entry.verdicts);
  });

  it('a changed source file, or a generator drawing from other seeds, changes its hash', () => {
    expect(sourceHash(graderFolder(version === 1 ? 2 : 1))).not.toBe(entry.sources);
    const [id, versions] = Object.entries(manifest.generators)[0];
    const [g, frozen] = Object.entries(versions)[0];
    expect(generatorHash(id, Number(g), frozen.seeds.map((s) => s + 1))).not.toBe(frozen.instances);
  });
});
