/** @type {import('jest').Config} */
const base = require('./jest.config.js');

/*
 * What CI runs once beside npm test rather than inside it (.ci/run; `npm run test:slow` locally), because each takes
 * a minute or more and none keeps npm test within its budget (docs/development.md): the proofs that one frozen grader
 * version judges as another does, the replay of every released grader version's frozen corpus, and the shortcut
 * agents' full measurement on every family against the bounds (every *.proof.spec.ts under tools/). npm test keeps
 * the fast checks beside each: the frozen folders' source hashes (released-versions.spec.ts), the current version's
 * verdicts on every fixture reply (validity.spec.ts), the shortcut instrument on made-up figures (shortcuts.spec.ts).
 */
const unit = base.projects.find((project) => project.displayName === 'unit');
module.exports = {
  ...base,
  projects: [{ ...unit, displayName: 'slow', testMatch: ['<rootDir>/tools/**/*.proof.spec.ts'], testPathIgnorePatterns: ['/node_modules/'] }],
};
