import globalTeardown from './global-teardown';
import { dropDatabase, postgresAdminUrl, withClient } from './postgres';

/** Drops the run's template and every database made from it, then the usual run folder. */
export default async function postgresGlobalTeardown(): Promise<void> {
  const run = process.env.SUPPORTDESK_TEST_POSTGRES_RUN;
  if (run) {
    await withClient(postgresAdminUrl(), async (client) => {
      const made = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${run}%`]);
      // Copies first: the template cannot be dropped while a copy is being made from it.
      for (const { datname } of made.rows.sort((a, b) => (a.datname.endsWith('_template') ? 1 : b.datname.endsWith('_template') ? -1 : 0))) {
        await dropDatabase(client, datname);
      }
    });
  }
  globalTeardown();
}
