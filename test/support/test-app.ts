import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig, type AppConfig } from '../../src/config/app-config';
import { hardenBuiltins } from '../../src/common/harden-builtins';
import { createApp, type CreateAppOptions } from '../../src/app/create-app';

/**
 * A fresh copy of the migrated template database, in its own folder; under `npm run test:postgres`, a fresh
 * PostgreSQL database made from the run's migrated template (postgres-global-setup.ts).
 */
export function freshDatabaseUrl(): string {
  const run = process.env.SUPPORTDESK_TEST_POSTGRES_RUN;
  if (run) return freshPostgresDatabaseUrl(run);
  const template = process.env.SUPPORTDESK_TEMPLATE_DB;
  if (!template) throw new Error('SUPPORTDESK_TEMPLATE_DB is not set: run the tests through jest (globalSetup)');
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-e2e-'));
  const file = join(dir, 'test.db');
  copyFileSync(template, file);
  return `file:${file}`;
}

/** A chain key for apps on PostgreSQL that were given none (a PostgreSQL server needs one: app-config.ts). */
const POSTGRES_TEST_CHAIN_KEY = 'p'.repeat(64);

/**
 * The chain key of a test app on `databaseUrl` started without CHAIN_KEY: the key file an open-mode server keeps
 * beside its SQLite file, or the key testConfig gives an app on PostgreSQL.
 */
export function defaultChainKeyOf(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) return POSTGRES_TEST_CHAIN_KEY;
  return readFileSync(`${databaseUrl.slice('file:'.length)}.chain-key`, 'utf8').trim();
}

export function testConfig(overrides: Record<string, string> = {}): AppConfig {
  // No shutdown grace: an app closed by a test has no client racing its close (the crash test runs the default).
  const url = overrides.DATABASE_URL ?? '';
  const postgres = /^postgres/.test(url) ? { CHAIN_KEY: POSTGRES_TEST_CHAIN_KEY, LEDGER_CHECKPOINT_FILE: checkpointFileOf(url) } : {};
  return loadConfig({ LOG_LEVEL: 'silent', SHUTDOWN_GRACE_MS: '0', ...postgres, ...overrides });
}

/**
 * The ledger checkpoint file of a test app on `databaseUrl` (unless the test names one): beside a SQLite file, as the
 * server's default; for a PostgreSQL database, one of its own in the temporary folder (the server's default, one
 * file in data/, would be shared by every test database of a run).
 */
export function checkpointFileOf(databaseUrl: string): string {
  if (databaseUrl.startsWith('file:')) return `${databaseUrl.slice('file:'.length)}.ledger-checkpoints`;
  return join(tmpdir(), `${new URL(databaseUrl).pathname.slice(1)}.ledger-checkpoints`);
}

/** CREATE DATABASE … TEMPLATE, synchronously (freshDatabaseUrl is), in a child process. */
function freshPostgresDatabaseUrl(run: string): string {
  const admin = process.env.SUPPORTDESK_TEST_POSTGRES_URL!;
  const name = `${run}_${randomBytes(4).toString('hex')}`;
  const script = `const { Client } = require('pg');
const client = new Client({ connectionString: process.argv[1] });
client.connect().then(() => client.query('CREATE DATABASE "' + process.argv[2] + '" TEMPLATE "' + process.argv[3] + '"')).then(() => client.end(), (error) => { console.error(error.message); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script, admin, name, `${run}_template`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
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
