import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/** npm run bench:console: the console's measurements (not tests), against a server filled with a 1,200-cell run. */
export default defineConfig({
  ...base,
  testMatch: /\.bench\.ts$/,
  globalSetup: './bench/large-run-setup.ts',
  timeout: 600_000,
});
