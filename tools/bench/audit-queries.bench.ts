import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { PostgresConnection } from '../../src/database/postgres-connection';
import { loadConfig } from '../../src/config/app-config';
import { createApp } from '../../src/app/create-app';
import { migrateDatabase } from '../../src/database/migrate';
import { readCommandLine } from '../cli/command-line';
import { generateAuditDataset } from './audit-dataset';
import { AUDIT_QUERIES_COMMAND } from './bench.commands';
import { AUDIT_BENCH_CHAIN_KEY, auditDatasetOnPostgres } from './audit-postgres';

/*
 * `npm run bench:audit`: the audit queries on a database of 100,000 episodes and 1,000,000 action rows.
 * Generates the dataset once (data/bench/audit.db; delete it to regenerate), serves the real app on an
 * ephemeral port, and times each query over HTTP: median and p95 of 30 runs after 5 warm-ups.
 * Prints the SQLite query plans, so index use can be checked.
 */

const EPISODES = Number(process.env.BENCH_EPISODES ?? 100_000);
const ACTIONS_PER_EPISODE = 10;
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const RUNS = 30;
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL;

async function time(url: string, headers: Record<string, string>): Promise<{ median: number; p95: number; bytes: number }> {
  const samples: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS + 5; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    const body = await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body}`);
    if (i >= 5) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    bytes = body.length;
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p95: samples[Math.floor(samples.length * 0.95)], bytes };
}

/** Serves the real app on `env`'s database and times every case over HTTP (the deep page's cursor found first). */
async function timeCases(env: Record<string, string>): Promise<Array<{ name: string; median: number; p95: number; bytes: number }>> {
  const app = await createApp(loadConfig({ ...env, LOG_LEVEL: 'warn', ADMIN_API_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: '0', EPISODE_IDLE_TIMEOUT_MINUTES: '0' }));
  await app.listen(0, '127.0.0.1');
  try {
    const base = await app.getUrl();
    const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
    const cases: [string, string][] = [
      ['GET /episodes, two filters (task_id + agent), one tenant', '/episodes?tenant=big-lab&task_id=security_compromised_account&agent=agent-3/1.0&limit=50'],
      ['GET /episodes, two filters (status + tag), one tenant', '/episodes?tenant=big-lab&status=resolved&tag=nightly&limit=50'],
      ['GET /episodes, page 20 via cursor', ''],
      ['GET /stats, one tenant (70% of rows)', '/stats?tenant=big-lab'],
      ['GET /stats, all tenants (admin)', '/stats'],
      ['GET /stats, one tenant, two filters', '/stats?tenant=big-lab&agent=agent-3/1.0&status=resolved'],
      ['GET /stats, one tenant, grouped by agent', '/stats?tenant=big-lab&group_by=agent'],
    ];
    // The deep page: follow 19 cursors first.
    let cursorUrl = `${base}/episodes?tenant=big-lab&limit=50`;
    for (let i = 0; i < 19; i++) {
      const page = (await (await fetch(cursorUrl, { headers: admin })).json()) as { next_cursor: string };
      cursorUrl = `${base}/episodes?tenant=big-lab&limit=50&cursor=${encodeURIComponent(page.next_cursor)}`;
    }
    cases[2][1] = cursorUrl.slice(base.length);
    const results = [];
    for (const [name, path] of cases) results.push({ name, ...(await time(`${base}${path}`, admin)) });
    return results;
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  readCommandLine(AUDIT_QUERIES_COMMAND);
  const dir = resolve('data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `audit-${EPISODES}.db`);
  if (!existsSync(file)) {
    console.log(`generating ${EPISODES} episodes and ${EPISODES * ACTIONS_PER_EPISODE} action rows in ${file} ...`);
    const started = Date.now();
    migrateDatabase(`file:${file}`);
    generateAuditDataset(file, { episodes: EPISODES, actionsPerEpisode: ACTIONS_PER_EPISODE, tenants: ['big-lab', 'lab-b', 'lab-c', 'lab-d'] });
    console.log(`generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const raw = new Database(file, { readonly: true });
  const counts = raw.prepare('SELECT (SELECT COUNT(*) FROM episodes) AS episodes, (SELECT COUNT(*) FROM action_log) AS actions').get();
  // Closed while the copy runs: the copy tool refuses a file another connection holds open.
  raw.close();
  console.log('dataset:', counts);

  const postgresUrl = POSTGRES_ADMIN_URL ? await auditDatasetOnPostgres(POSTGRES_ADMIN_URL, file, EPISODES, join(dir, `audit-${EPISODES}.postgresql.ledger-checkpoints`)) : null;

  const onSqlite = await timeCases({ DATABASE_URL: `file:${file}` });
  const onPostgres = postgresUrl
    ? await timeCases({ DATABASE_URL: postgresUrl, CHAIN_KEY: AUDIT_BENCH_CHAIN_KEY, LEDGER_CHECKPOINT_FILE: join(dir, `audit-${EPISODES}.postgresql.ledger-checkpoints`) })
    : null;
  const columns = onPostgres ? ['sqlite median', 'sqlite p95', 'pg median', 'pg p95', 'bytes'] : ['median ms', 'p95 ms', 'bytes'];
  console.log(`\n${'query'.padEnd(60)} ${columns.map((c) => c.padStart(13)).join(' ')}`);
  for (const [i, result] of onSqlite.entries()) {
    const figures = [result.median, result.p95, ...(onPostgres ? [onPostgres[i].median, onPostgres[i].p95] : [])].map((ms) => ms.toFixed(1));
    console.log(`${result.name.padEnd(60)} ${[...figures, String(result.bytes)].map((f) => f.padStart(13)).join(' ')}`);
  }
  if (onPostgres) console.log('(milliseconds over HTTP; pg: the same dataset copied into PostgreSQL, on this machine)');

  console.log('\nquery plans:');
  const plans: [string, string, unknown[]][] = [
    [
      'list, task_id + agent',
      'SELECT id FROM episodes WHERE tenant_id = ? AND task_id = ? AND agent = ? ORDER BY created_at DESC, id DESC LIMIT 51',
      ['big-lab', 'security_compromised_account', 'agent-3/1.0'],
    ],
    [
      'list, status + tag',
      `SELECT id FROM episodes e WHERE tenant_id = ? AND status = ? AND EXISTS (SELECT 1 FROM episode_tags t
       WHERE t.episode_id = e.id AND t.tenant_id = ? AND t.tag = ?) ORDER BY created_at DESC, id DESC LIMIT 51`,
      ['big-lab', 'resolved', 'big-lab', 'nightly'],
    ],
    ['stats scan, one tenant', 'SELECT task_id, score_milli FROM episodes e WHERE e.tenant_id = ?', ['big-lab']],
  ];
  const plansOf = new Database(file, { readonly: true });
  for (const [name, sql, params] of plans) {
    const rows = plansOf.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    console.log(`- ${name}: ${rows.map((r) => r.detail).join(' | ')}`);
  }
  plansOf.close();
  if (postgresUrl) {
    console.log('\nPostgreSQL query plans:');
    const client = new Client({ connectionString: postgresUrl });
    await client.connect();
    const sql = new PostgresConnection(client);
    for (const [name, text, params] of plans) {
      const rows = await sql.all<{ 'QUERY PLAN': string }>(`EXPLAIN (COSTS OFF) ${text}`, params);
      console.log(`- ${name}: ${rows.map((r) => r['QUERY PLAN'].trim()).join(' | ')}`);
    }
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
