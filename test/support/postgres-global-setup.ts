import { migratePostgres } from '../../src/database/postgres-migrate';
import globalSetup from './global-setup';
import { postgresAdminUrl, withClient } from './postgres';

/**
 * `npm run test:postgres`: the usual run folder, then one migrated PostgreSQL template database for the run; every
 * e2e file's app gets a fresh copy of it (CREATE DATABASE … TEMPLATE, test-app.ts freshDatabaseUrl).
 */
export default async function postgresGlobalSetup(): Promise<void> {
  globalSetup();
  const admin = postgresAdminUrl();
  const run = `sd_run_${process.pid}`;
  const template = `${run}_template`;
  await withClient(admin, (client) => client.query(`CREATE DATABASE "${template}"`));
  const url = new URL(admin);
  url.pathname = `/${template}`;
  await migratePostgres({ connectionString: url.toString() });
  process.env.SUPPORTDESK_TEST_POSTGRES_RUN = run;
}
