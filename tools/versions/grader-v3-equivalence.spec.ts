import { canonicalJson } from '../../src/common/canonical-json';
import type { Task } from '../../src/engine/task.schema';
import { caseOutcome, corpusTask, readCorpus, readManifest } from './version-hashes';
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
  const differ: string[] = [];
  for (const c of corpus.cases) {
    const key = canonicalJson(c.task);
    let pair = tasks.get(key);
    if (!pair) {
      const v2 = corpusTask(corpus, c.task);
      tasks.set(key, (pair = { v2, v3: { ...v2, answer_key: { ...v2.answer_key, lexicon: LEGACY_LEXICON } } }));
    }
    const expected = withoutVersion(caseOutcome(pair.v2, c, 2));
    const actual = canonicalJson(caseOutcome(pair.v3, c, 3));
    if (!actual.includes('"grader_version":3')) throw new Error(`case ${c.label} was not graded by version 3`);
    if (withoutVersion(actual) !== expected) differ.push(c.label);
  }
  expect(corpus.cases.length).toBeGreaterThan(1000);
  expect(differ).toEqual([]);
});
