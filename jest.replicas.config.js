/** @type {import('jest').Config} */
const base = require('./jest.config.js');

/*
 * `npm run test:replicas` (CI runs it after test:postgres): the scale profile's topology for real, two built servers
 * (dist/main.js: run `npm run build` first) on one PostgreSQL database behind HAProxy (Debian's package) running
 * deploy/haproxy.cfg (tools/replicas/topology.ts). Needs SUPPORTDESK_TEST_POSTGRES_URL, as test:postgres does.
 * One suite at a time: each one's replicas and load would otherwise compete with the next one's on two cores.
 */
const medium = base.projects.find((project) => project.displayName === 'medium');
module.exports = {
  ...base,
  testTimeout: 120_000,
  projects: [{ ...medium, displayName: 'replicas', testMatch: ['<rootDir>/test/replicas/**/*.spec.ts'] }],
};
