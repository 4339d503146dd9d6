import { CURRENT_GRADER_VERSION, GRADERS } from '../../src/engine/graders';
import { GRADER_VERSIONS } from '../../src/engine/grader-version';
import { frozenVerdictProblem, readManifest } from './version-hashes';

/*
 * Every released grader version older than the current one still makes its frozen verdicts on its frozen corpus
 * (the current one is checked in npm test, released-versions.spec.ts). Their folders are frozen by source hashes in
 * npm test; what this adds is the engine code they share, replayed in CI (`npm run test:slow`).
 */

const manifest = readManifest();
const older = GRADER_VERSIONS.filter((v) => GRADERS[v].released && v !== CURRENT_GRADER_VERSION);

it('replays every released version but the current one', () => {
  expect(older.length).toBeGreaterThan(0);
  expect(older).not.toContain(CURRENT_GRADER_VERSION);
});

it.each(older.map((v) => [v]))('released grader version %i makes the frozen verdicts on its corpus', (version) => {
  const problem = frozenVerdictProblem(version, manifest);
  if (problem) throw new Error(problem);
});
