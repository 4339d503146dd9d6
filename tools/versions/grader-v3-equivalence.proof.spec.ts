import { canonicalJson, sha256Hex } from '../../src/common/canonical-json';
import type { Task } from '../../src/engine/task.schema';
import { caseOutcome, corpusTask, readCorpus, readManifest, type CorpusCase } from './version-hashes';
import { LEGACY_LEXICON } from './v2-legacy-lexicon';

/*
 * Grader version 3 is version 2 with the domain words moved out of the engine into the task (issue 22). Given a
 * lexicon that holds exactly version 2's built-in domain words, it must make version 2's verdicts on version 2's
 * frozen corpus, case by case: the move changed where the words live, not what is judged.
 */

const corpus = readCorpus(readManifest().graders['2'].corpus);

/** An outcome with the version number taken out (the state and the grade each record theirs). */
const withoutVersion = (outcome: unknown): string => (typeof outcome === 'string' ? outcome : canonicalJson(outcome)).replace(/"grader_version":3/g, '"grader_version":2');

it('given version 2 built-in domain words as the task lexicon, version 3 makes version 2 verdicts on its frozen corpus', () => {
  const tasks = new Map<string, { v2: Task; v3: Task }>();
  const pairOf = (c: CorpusCase) => {
    const key = canonicalJson(c.task);
    let pair = tasks.get(key);
    if (!pair) {
      const v2 = corpusTask(corpus, c.task);
      tasks.set(key, (pair = { v2, v3: { ...v2, answer_key: { ...v2.answer_key, lexicon: LEGACY_LEXICON } } }));
    }
    return pair;
  };
  const outcomes = corpus.cases.map((c) => {
    const actual = canonicalJson(caseOutcome(pairOf(c).v3, c, 3));
    if (!actual.includes('"grader_version":3')) throw new Error(`case ${c.label} was not graded by version 3`);
    return actual;
  });
  expect(corpus.cases.length).toBeGreaterThan(1000);
  // Version 2's outcomes on its corpus are frozen as a hash (released-versions.spec.ts holds version 2 to it), so
  // version 3's, version number aside, must hash alike; only when they do not is version 2 run, to name the cases.
  if (sha256Hex(withoutVersion(`[${outcomes.join(',')}]`)) === readManifest().graders['2'].verdicts) return;
  const differ = corpus.cases.filter((c, i) => withoutVersion(outcomes[i]) !== withoutVersion(caseOutcome(pairOf(c).v2, c, 2))).map((c) => c.label);
  expect(differ).toEqual([]);
  throw new Error('version 3 hashes unlike version 2 on its corpus, yet no case differs: the hash is not computed as verdictHash computes it');
});
