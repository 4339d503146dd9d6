import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig } from '../../src/config/app-config';
import { createApp } from '../../src/app/create-app';
import { migrateDatabase } from '../../src/database/migrate';
import { readCommandLine } from '../cli/command-line';
import { generateAuditDataset } from './audit-dataset';
import { AUDIT_QUERIES_COMMAND } from './bench.commands';

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
  console.log('dataset:', counts);

  const app = await createApp(
    loadConfig({ DATABASE_URL: `file:${file}`, LOG_LEVEL: 'warn', ADMIN_API_KEY: ADMIN_KEY, RATE_LIMIT_PER_MINUTE: '0' }),
  );
  await app.listen(0, '127.0.0.1');
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

  console.log(`\n${'query'.padEnd(60)} ${'median ms'.padStart(10)} ${'p95 ms'.padStart(8)} ${'bytes'.padStart(8)}`);
  for (const [name, path] of cases) {
    const result = await time(`${base}${path}`, admin);
    console.log(`${name.padEnd(60)} ${result.median.toFixed(1).padStart(10)} ${result.p95.toFixed(1).padStart(8)} ${String(result.bytes).padStart(8)}`);
  }
  await app.close();

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
  for (const [name, sql, params] of plans) {
    const rows = raw.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[];
    console.log(`- ${name}: ${rows.map((r) => r.detail).join(' | ')}`);
  }
  raw.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
