/** @type {import('jest').Config} */
const base = require('./jest.config.js');

/*
 * The suites that need a PostgreSQL server (`npm run test:postgres`, run by CI after it starts one; test/postgres/):
 * beside npm test, not in it, since the README's `npm test` must pass on a machine with no database server.
 * SUPPORTDESK_TEST_POSTGRES_URL names the server (test/support/postgres.ts).
 */
const medium = base.projects.find((project) => project.displayName === 'medium');
module.exports = {
  ...base,
  projects: [{ ...medium, displayName: 'postgres', testMatch: ['<rootDir>/test/postgres/**/*.spec.ts'] }],
};
