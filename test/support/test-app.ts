import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { hardenBuiltins } from '../../src/common/harden-builtins';
import { createApp, type CreateAppOptions } from '../../src/app/create-app';

/** A fresh copy of the migrated template database, in its own folder. */
export function freshDatabaseUrl(): string {
  const template = process.env.SUPPORTDESK_TEMPLATE_DB;
  if (!template) throw new Error('SUPPORTDESK_TEMPLATE_DB is not set: run the tests through jest (globalSetup)');
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-e2e-'));
  const file = join(dir, 'test.db');
  copyFileSync(template, file);
  return `file:${file}`;
}

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  // No shutdown grace: an app closed by a test has no client racing its close (the crash test runs the default).
  return loadConfig({ LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '0', ...overrides });
}

/**
 * The real app (real module, real pipes and filters) on a real SQLite file, not listening; on the machine's clock
 * unless the test states the time (`options.clock`).
 */
export async function startTestApp(databaseUrl = freshDatabaseUrl(), overrides: Record<string, string> = {}, options: CreateAppOptions = {}) {
  const app: NestFastifyApplication = await createApp(testConfig({ DATABASE_URL: databaseUrl, ...overrides }), options);
  // CI runs the whole suite once more with the production backstop on (main.ts hardens after building the app).
  if (process.env.SUPPORTDESK_TEST_HARDEN_BUILTINS === '1') hardenBuiltins();
  return { app, databaseUrl, http: app.getHttpServer() };
}
