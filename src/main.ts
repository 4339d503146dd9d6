import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp } from './app/create-app';
import { hardenBuiltins } from './common/harden-builtins';
import { ConfigError, LOOPBACK_NAMES, loadConfig, type AppConfig } from './config/app-config';
import { prepareDatabaseFile } from './config/database-url';
import { migrateIfPending } from './database/migrate';
import { createLogger } from './http/request-logging';

/**
 * The start sequence, in the order that makes every failure early and plain: the configuration is validated
 * before anything touches the disk; the database file is created readable by this user only; pending migrations
 * are applied (none pending: no lock is taken, so a second server can start on a file in use); then the app.
 */
async function bootstrap(): Promise<void> {
  let config: AppConfig;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config);
  const file = prepareDatabaseFile(config.databaseUrl);
  const applied = await migrateIfPending(config.databaseUrl, config.sqliteBusyTimeoutMs + 30_000, (message) => logger.warn(message));
  if (applied.length > 0) logger.info({ migrations: applied }, `applied ${applied.length} migration(s) to ${file}`);
  const app = await createApp(config, { logger });
  // Everything is loaded: from here on, built-ins every tenant shares cannot be changed (prototype pollution).
  hardenBuiltins();
  await app.listen(config.port, config.host);
  Logger.log(`SupportDesk listening on http://${config.host}:${config.port} (docs at /docs), database ${file}`, 'Bootstrap');
  warnAboutOpenAccess(config);
}

/** Anonymous access is fine on a laptop and wrong on a shared server: say which one this is. */
function warnAboutOpenAccess(config: AppConfig): void {
  if (config.requireApiKey) return;
  const exposed = !(LOOPBACK_NAMES as readonly string[]).includes(config.host) && config.host !== 'localhost';
  Logger.warn(
    `open mode: requests without an API key act as the built-in "public" tenant` +
      (exposed ? ` and the server listens on ${config.host}, reachable from other machines` : ' (loopback only)') +
      '; set REQUIRE_API_KEY=true (with ADMIN_API_KEY and CHAIN_KEY) for a shared server',
    'Bootstrap',
  );
}

bootstrap().catch((error: unknown) => {
  console.error('SupportDesk failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
