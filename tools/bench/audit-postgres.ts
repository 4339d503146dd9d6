import { Client } from 'pg';
import { copySqliteToPostgres } from '../ops/copy-to-postgres/copy-database';

/** The chain key the generated dataset is copied and served with (the dataset's rows carry no MAC to check). */
export const AUDIT_BENCH_CHAIN_KEY = 'bench-audit-chain-key-'.padEnd(64, 'a');

/**
 * The audit dataset on PostgreSQL: a database of its own on the server `adminUrl` names (a role that may create
 * databases), filled once from the generated SQLite file by the copy tool (tools/ops/copy-to-postgres), then kept,
 * as the SQLite file is, for the next run (drop the database to make it again). Its URL.
 */
export async function auditDatasetOnPostgres(adminUrl: string, sqliteFile: string, episodes: number, checkpointFile: string): Promise<string> {
  const name = `sd_bench_audit_${episodes}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
    if (exists && (await filled(url.toString()))) return url.toString();
    if (exists) await admin.query(`DROP DATABASE "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  console.log(`copying the dataset into PostgreSQL database ${name} ...`);
  const started = Date.now();
  const report = await copySqliteToPostgres({
    sourceFile: sqliteFile,
    targetUrl: url.toString(),
    sourceCheckpointFile: `${sqliteFile}.ledger-checkpoints`,
    targetCheckpointFile: checkpointFile,
    keys: { current: AUDIT_BENCH_CHAIN_KEY, currentFrom: 'the benchmark', held: { chain: [], privateSplit: [] } },
  });
  console.log(`copied ${report.rows} rows (vacuumed and analyzed by the copy) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return url.toString();
}

/** Whether a previous run's copy finished (the copy commits all of it or nothing). */
async function filled(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const table = (await client.query(`SELECT to_regclass('public.episodes') AS t`)).rows[0].t;
    return table !== null && (await client.query('SELECT 1 FROM episodes LIMIT 1')).rowCount === 1;
  } finally {
    await client.end();
  }
}
