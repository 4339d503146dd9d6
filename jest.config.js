/** @type {import('jest').Config} */
// The Swagger plugin runs in tests too, so the app under test documents itself exactly as the build does.
const swaggerPlugin = { path: '<rootDir>/test/support/swagger-plugin-transformer.js' };

const shared = {
  rootDir: '.',
  // In the project, not the system temp folder: CI checks that a test run leaves nothing behind in TMPDIR.
  cacheDirectory: '<rootDir>/node_modules/.cache/jest',
  /*
   * One id for the three projects: Jest keeps its transform cache (and module map) per project id, and the three
   * transform and resolve alike, so a file the e2e suites compiled is not compiled again for the middle tier or a
   * unit spec. With ts-jest shown one configuration for all three (test/support/ts-jest-shared.js), the cache keys
   * agree too.
   */
  id: 'supportdesk-tests',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  /*
   * Two compilers. DTOs and controllers go through the Swagger plugin, which needs the type checker, so they are
   * compiled with a program: tsconfig.jest-plugin.json, the DTOs, the controllers and what they import (not every
   * test and tool, which a cold run would parse in every worker for nothing). Everything else is transpiled file by
   * file (isolatedModules), which is what makes a cold run fast. Types are checked by `npm run typecheck` (tsc over
   * sources and tests, run by CI), not file by file here.
   */
  transform: {
    '^.+\\.(dto|controller)\\.ts$': [
      '<rootDir>/test/support/ts-jest-typed.js',
      {
        tsconfig: 'tsconfig.jest-plugin.json',
        astTransformers: { before: [swaggerPlugin] },
        // No per-file type report (tsc does that); TS151002 only says Node16 module kinds prefer isolatedModules.
        diagnostics: { ignoreCodes: [151002], pathRegex: '$^' },
      },
    ],
    '^.+\\.ts$': ['<rootDir>/test/support/ts-jest-shared.js', { tsconfig: 'tsconfig.jest.json', diagnostics: false }],
  },
  // The generated Prisma client imports its siblings as './x.js'; under ts-jest those are .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

/*
 * Three tiers (ARCHITECTURE.md): unit specs beside the code they test; the middle tier (a service against an
 * in-memory repository, a repository against a real SQLite file, the SQL snapshots); end-to-end suites that
 * keep to the HTTP, /ws and /mcp contract against the real app on a freshly migrated file.
 */
module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 60000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/tools/**/*.spec.ts', '<rootDir>/client/**/*.spec.ts', '<rootDir>/console/src/**/*.spec.ts'],
      // Proofs and full-size measurements (jest.slow.config.js): CI runs them once, npm test does not.
      testPathIgnorePatterns: ['/node_modules/', '\\.proof\\.spec\\.ts$'],
    },
    { ...shared, displayName: 'medium', testMatch: ['<rootDir>/test/medium/**/*.spec.ts'], setupFiles: ['<rootDir>/test/medium/quiet-logs.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
