/** @type {import('jest').Config} */
const base = require('./jest.config.js');

/*
 * The proofs that one frozen grader version judges as another does (tools/versions/*.proof.spec.ts). Both sides
 * are released, so their verdicts cannot move unless a frozen hash moves, which released-versions.spec.ts (in
 * npm test) catches; the proofs themselves take most of a minute, so CI runs them once (.ci/run), beside
 * npm test rather than inside it. `npm run versions:prove` runs them locally.
 */
const unit = base.projects.find((project) => project.displayName === 'unit');
module.exports = {
  ...base,
  projects: [{ ...unit, displayName: 'proofs', testMatch: ['<rootDir>/tools/versions/**/*.proof.spec.ts'], testPathIgnorePatterns: ['/node_modules/'] }],
};
