/** @type {import('jest').Config} */
const base = require('./jest.config.js');

/*
 * What CI runs once beside npm test rather than inside it (.ci/run; `npm run test:slow` locally), because each takes
 * a minute or more and none keeps npm test within its budget (docs/development.md): the proofs that one frozen grader
 * version judges as another does, the replay of every released grader version's frozen corpus, the shortcut
 * agents' full measurement on every family against the bounds, every grader version's figures on every drawn reply
 * set, and the sentence families of the frozen versions' fixes (every *.proof.spec.ts under tools/). npm test keeps
 * the fast checks beside each: the frozen folders' source hashes (released-versions.spec.ts), the current version's
 * verdicts on every fixture reply (validity.spec.ts) and its figures on every drawn set (drawn-suite.spec.ts), the
 * current version's sentence families (grader-v7-sentences.spec.ts), the shortcut instrument on made-up figures
 * (shortcuts.spec.ts). The claim engine's unit specs live in the current version's folder only: a frozen version is
 * held by its corpus.
 */
const unit = base.projects.find((project) => project.displayName === 'unit');
module.exports = {
  ...base,
  projects: [{ ...unit, displayName: 'slow', testMatch: ['<rootDir>/tools/**/*.proof.spec.ts'], testPathIgnorePatterns: ['/node_modules/'] }],
};
