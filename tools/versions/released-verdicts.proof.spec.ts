import { CURRENT_GRADER_VERSION, GRADERS } from '../../src/engine/graders';
import { GRADER_VERSIONS } from '../../src/engine/grader-version';
import { frozenVerdictProblem, readManifest } from './version-hashes';

/*
 * Every released grader version still makes its frozen verdicts on its frozen corpus. Their folders are frozen by
 * source hashes in npm test (released-versions.spec.ts), and the current version's verdicts on every fixture reply are
 * pinned there too; what this adds is the engine code they share, replayed in CI (`npm run test:slow`).
 */

const manifest = readManifest();
const released = GRADER_VERSIONS.filter((v) => GRADERS[v].released);

it('replays every released version, the current one included', () => {
  expect(released).toContain(CURRENT_GRADER_VERSION);
  expect(released.length).toBe(Object.keys(manifest.graders).length);
});

it.each(released.map((v) => [v]))('released grader version %i makes the frozen verdicts on its corpus', (version) => {
  const problem = frozenVerdictProblem(version, manifest);
  if (problem) throw new Error(problem);
});
