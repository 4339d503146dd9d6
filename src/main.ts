import 'reflect-metadata';
import { createApp } from './app/create-app';
import { hardenBuiltins } from './common/harden-builtins';
import { startupSummary } from './app/startup-summary';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';
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
  // One line says it all (the detail of the start sequence is at LOG_LEVEL=debug); anonymous access on a server
  // others can reach is said again as a warning.
  const summary = startupSummary(config, file);
  logger.info(summary.fields, summary.message);
  if (summary.warning) logger.warn(summary.warning);
}

bootstrap().catch((error: unknown) => {
  console.error('SupportDesk failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
