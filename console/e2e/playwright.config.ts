import { defineConfig } from '@playwright/test';
import { join } from 'node:path';

/*
 * Browser tests of the console (npm run test:console): Debian's Chromium driven by Playwright against the real,
 * built server on a fresh SQLite file (fixture/global-setup.ts). Playwright's own browser download is not used.
 * Screenshots of each page go to console/e2e/screenshots/ (docs/console.md).
 */
export default defineConfig({
  testDir: '.',
  testMatch: /\.spec\.ts$/,
  globalSetup: './fixture/global-setup.ts',
  // One server, one browser at a time: the tests read what the fixture wrote and change little.
  workers: 1,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // What a failed test leaves (its page snapshot), beside the screenshots; not committed.
  outputDir: join(__dirname, 'test-results'),
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 900 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Without these, Chromium's background connections are refused by a closed network, many at a time.
      args: ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-sandbox'],
    },
    trace: 'off',
    screenshot: 'off',
  },
});
