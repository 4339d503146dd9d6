import 'reflect-metadata';
import { createApp } from './app/create-app';
import { hardenBuiltins } from './common/harden-builtins';
import { startupSummary } from './app/startup-summary';
import { ConfigError, loadConfig, type AppConfig } from './config/app-config';
import { prepareDatabaseFile } from './config/database-url';
import { migrateIfPending } from './database/migrate';
import { migratePostgresWhenReachable, serverOf } from './database/postgres-migrate';
import { createLogger } from './http/request-logging';

/**
 * The start sequence, in the order that makes every failure early and plain: the configuration is validated
 * before anything touches the disk; the database file is created readable by this user only (on PostgreSQL: the
 * server is waited for); pending migrations are applied (SQLite: none pending, no lock is taken, so a second server
 * can start on a file in use; PostgreSQL: under an advisory lock, so replicas starting together migrate once); then
 * the app.
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
  const database = await migrated(config, (message) => logger.warn(message));
  if (database.applied.length > 0) logger.info({ migrations: database.applied }, `applied ${database.applied.length} migration(s) to ${database.name}`);
  const app = await createApp(config, { logger });
  // Everything is loaded: from here on, built-ins every tenant shares cannot be changed (prototype pollution).
  hardenBuiltins();
  await app.listen(config.port, config.host);
  // One line says it all (the detail of the start sequence is at LOG_LEVEL=debug); anonymous access on a server
  // others can reach is said again as a warning.
  const summary = startupSummary(config, database.name);
  logger.info(summary.fields, summary.message);
  if (summary.warning) logger.warn(summary.warning);
}

/** Migrates the database DATABASE_URL names; its name for logs (a file, or a server without its password). */
async function migrated(config: AppConfig, warn: (message: string) => void): Promise<{ name: string; applied: string[] }> {
  if (config.databaseKind === 'postgresql') {
    return { name: `postgresql://${serverOf(config.databaseUrl)}`, applied: await migratePostgresWhenReachable(config.databaseUrl, config.databaseWaitMs, warn) };
  }
  const file = prepareDatabaseFile(config.databaseUrl);
  return { name: file, applied: await migrateIfPending(config.databaseUrl, config.sqliteBusyTimeoutMs + 30_000, warn) };
}

bootstrap().catch((error: unknown) => {
  console.error('SupportDesk failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
