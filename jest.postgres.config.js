/** @type {import('jest').Config} */
const base = require('./jest.config.js');

/*
 * The suites that need a PostgreSQL server (`npm run test:postgres`, run by CI after it starts one): beside npm test,
 * not in it, since the README's `npm test` must pass on a machine with no database server. SUPPORTDESK_TEST_POSTGRES_URL
 * names the server (test/support/postgres.ts).
 * - postgres: test/postgres/, the migrations, every statement prepared, the episode repository with two processes;
 * - postgres-e2e: end-to-end suites that keep to the HTTP, /ws and /mcp contract, run unchanged on PostgreSQL (each
 *   file's app on a fresh database made from the run's migrated template: test/support/postgres-global-setup.ts).
 */
const medium = base.projects.find((project) => project.displayName === 'medium');
const e2e = base.projects.find((project) => project.displayName === 'e2e');
const ON_POSTGRES = ['persistence', 'tenancy', 'audit', 'robustness', 'retention', 'ledger', 'runs-lifecycle', 'compact-storage', 'step-batch', 'errors', 'version-guard', 'private-split', 'fuzz', 'metrics', 'hardening', 'hardening-2', 'hostile-input', 'episodes', 'episode-steps', 'feedback-modes', 'runs', 'access-rules', 'test-split-withheld', 'ws', 'openenv', 'mcp', 'mcp-sessions', 'grading'];
module.exports = {
  ...base,
  globalSetup: '<rootDir>/test/support/postgres-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/postgres-global-teardown.ts',
  projects: [
    { ...medium, displayName: 'postgres', testMatch: ['<rootDir>/test/postgres/**/*.spec.ts'] },
    { ...e2e, displayName: 'postgres-e2e', testMatch: ON_POSTGRES.map((name) => `<rootDir>/test/${name}.e2e-spec.ts`) },
  ],
};
