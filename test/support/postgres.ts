import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * The PostgreSQL suites (`npm run test:postgres`, test/postgres/) run against a real server: SUPPORTDESK_TEST_POSTGRES_URL
 * names a role that may create databases (CI starts Debian's PostgreSQL and sets it: tools/ci/start-postgres.sh).
 * Without it the suites fail, naming the variable, rather than pass having run nothing.
 */
export function postgresAdminUrl(): string {
  const url = process.env.SUPPORTDESK_TEST_POSTGRES_URL;
  if (!url) {
    throw new Error('SUPPORTDESK_TEST_POSTGRES_URL is not set: start a PostgreSQL server (tools/ci/start-postgres.sh prints the URL) and export it');
  }
  return url;
}

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A new, empty database on the test server, for one suite: dropped (with its connections) by `drop`. */
export async function scratchDatabase(label: string): Promise<ScratchDatabase> {
  const admin = postgresAdminUrl();
  const name = `sd_${label.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${process.pid}_${randomBytes(3).toString('hex')}`;
  await withClient(admin, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => withClient(admin, (client) => dropDatabase(client, name)),
  };
}

/**
 * Drops a test database and its connections. FORCE ends the sessions this role may end; an autovacuum worker that
 * happens to be in the database (a superuser's process) it may not, and the drop fails with 42501 until the worker
 * is gone, so that failure is tried again: without FORCE, PostgreSQL itself stops an autovacuum worker in the way.
 */
export async function dropDatabase(client: Client, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== '42501' || attempt === 20) throw error;
      await client.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND usename = current_user`, [name]);
      await client.query(`DROP DATABASE IF EXISTS "${name}"`).then(
        () => undefined,
        () => new Promise((resolve) => setTimeout(resolve, 250)),
      );
    }
  }
}

/** Runs `work` on a fresh connection to `url`, closed afterwards. */
export async function withClient<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
