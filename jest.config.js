/** @type {import('jest').Config} */
// The Swagger plugin runs in tests too, so the app under test documents itself exactly as the build does.
const swaggerPlugin = { path: '<rootDir>/test/support/swagger-plugin-transformer.js' };

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts', '<rootDir>/test/**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      {
        tsconfig: 'tsconfig.test.json',
        astTransformers: { before: [swaggerPlugin] },
        // TS151002 only says that Node16 module kinds prefer isolatedModules; type errors are still reported.
        diagnostics: { ignoreCodes: [151002] },
      },
    ],
  },
  // The generated Prisma client imports its siblings as './x.js'; under ts-jest those are .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 60000,
};
