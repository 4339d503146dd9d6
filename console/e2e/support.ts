import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSupportDeskClient, type SupportDeskClient } from '../../client/supportdesk-client';
import type { ConsoleFixture } from './fixture/global-setup';

/** Where each page's screenshot is saved (docs/console.md); the README's pictures are taken from here. */
export const SCREENSHOTS = join(__dirname, 'screenshots');

export function fixture(): ConsoleFixture {
  const file = process.env.CONSOLE_FIXTURE;
  if (!file) throw new Error('CONSOLE_FIXTURE is not set: run the tests with npm run test:console');
  return JSON.parse(readFileSync(file, 'utf8')) as ConsoleFixture;
}

export function api(key: string): SupportDeskClient {
  return createSupportDeskClient(fixture().url, { apiKey: key });
}

export async function data<T>(pending: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const result = await pending;
  if (result.data === undefined) throw new Error(`${result.response.url}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

/** The console's own number formats (console/src/format.ts), restated: what a reader of the page sees. */
export function num(value: number | null | undefined, digits = 3): string {
  return value === null || value === undefined ? '—' : value.toFixed(digits);
}
export function interval(value: { estimate: number | null; low: number | null; high: number | null } | undefined): string {
  if (!value || value.estimate === null) return '—';
  return value.low === null || value.high === null ? num(value.estimate) : `${num(value.estimate)} [${num(value.low)}, ${num(value.high)}]`;
}

/** Signs a page in with a key (session storage, as the sign-in form does) before any script of the page runs. */
export async function signIn(page: Page, key: string): Promise<void> {
  // On the context: a page the test opens beside it is signed in too, as a new tab of the session would be.
  await page.context().addInitScript((k) => window.sessionStorage.setItem('supportdesk.apiKey', k), key);
}

/** The whole page as `<name>.png`, and what fits in the window as `<name>-window.png` (the README's size). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}-window.png`) });
}

/** No serious or critical accessibility violation on the page as it is now (axe-core, WCAG 2 A/AA rules). */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`)).toEqual([]);
}

/**
 * Every test fails on a console error or an uncaught exception in the page, except a failed request the test
 * expected (a 401/403 it provokes on purpose, which Chromium logs as "Failed to load resource").
 */
export const test = base.extend<{ consoleErrors: { allow(status: number): void } }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      const allowed = new Set<number>();
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const status = /status of (\d{3})/.exec(message.text());
        if (status && allowed.has(Number(status[1]))) return;
        errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      await use({ allow: (status) => allowed.add(status) });
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
