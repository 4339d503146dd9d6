/** @type {import('jest').Config} */
const base = require('./jest.config.js');

/*
 * What CI runs once beside npm test rather than inside it (.ci/run; `npm run versions:prove` locally), because it
 * takes a minute or more and changes only with frozen code: the proofs that one frozen grader version judges as
 * another does, and the replay of every released grader version's frozen corpus but the current one's
 * (tools/versions/*.proof.spec.ts). npm test keeps the frozen folders' source hashes and the current version's
 * verdicts (released-versions.spec.ts), so an edit to a frozen folder still fails there.
 */
const unit = base.projects.find((project) => project.displayName === 'unit');
module.exports = {
  ...base,
  projects: [{ ...unit, displayName: 'proofs', testMatch: ['<rootDir>/tools/versions/**/*.proof.spec.ts'], testPathIgnorePatterns: ['/node_modules/'] }],
};
