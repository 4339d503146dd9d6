import 'reflect-metadata';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { migrateDatabase } from '../../src/database/migrate';
import { readCommandLine } from '../cli/command-line';
import { generateAuditDataset } from './audit-dataset';
import { SERVER_FIGURES_COMMAND } from './bench.commands';
import { spawnServer, stopServer, waitHealthy } from './server-process';

/*
 * `npm run bench:server`: the server-level figures of the benchmark issue, each from the built server started
 * as its own process: cold start to healthy, reset latency, POST /baseline run time, and resident memory after
 * serving traffic on databases of 10,000 and 100,000 stored episodes (it should not grow with the store).
 */

const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const asAdmin = { authorization: `Bearer ${ADMIN_KEY}` };

function startServer(databaseUrl: string, port: number): ChildProcess {
  return spawnServer({
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_ACTIVE_EPISODES_PER_TENANT: '0',
    ADMIN_API_KEY: ADMIN_KEY,
  });
}

const untilHealthy = (port: number) => waitHealthy(`http://127.0.0.1:${port}`);

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'))!;
  return Number(line.replace(/\D+/g, '')) / 1024;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function post(port: number, path: string, body: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return res.json();
}

const stop = stopServer;

/** Serves a fixed mix of traffic (lists, stats, resets, steps), then reads the server's resident memory. */
async function memoryAfterTraffic(databaseUrl: string, port: number): Promise<number> {
  const server = startServer(databaseUrl, port);
  await untilHealthy(port);
  for (let i = 0; i < 300; i++) {
    const page = await fetch(`http://127.0.0.1:${port}/episodes?tenant=big-lab&limit=50`, { headers: asAdmin });
    if (!page.ok) throw new Error(`/episodes answered ${page.status}`);
    const started = await post(port, '/reset', { task_id: 'billing_duplicate_charge', seed: i });
    await post(port, '/step', { episode_id: started.episode_id, action: { type: 'search_policy', query: 'refund' } });
    if (i % 50 === 0 && !(await fetch(`http://127.0.0.1:${port}/stats`, { headers: asAdmin })).ok) throw new Error('/stats failed');
  }
  await new Promise((r) => setTimeout(r, 500));
  const rss = rssMb(server.pid!);
  await stop(server);
  return rss;
}

async function main(): Promise<void> {
  readCommandLine(SERVER_FIGURES_COMMAND);
  const dir = resolve('data', 'bench');
  mkdirSync(dir, { recursive: true });
  const port = 18000 + Math.floor(Math.random() * 1000);

  // Cold start and latencies on a fresh database.
  const fresh = `file:${join(dir, `server-fresh-${Date.now()}.db`)}`;
  migrateDatabase(fresh);
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = Date.now();
    const server = startServer(fresh, port);
    await untilHealthy(port);
    starts.push(Date.now() - t0);
    if (i < 4) await stop(server);
    else {
      const resets: number[] = [];
      for (let r = 0; r < 200; r++) {
        const t = process.hrtime.bigint();
        await post(port, '/reset', { task_id: 'security_compromised_account', seed: r });
        resets.push(Number(process.hrtime.bigint() - t) / 1e6);
      }
      const baselines: number[] = [];
      for (let b = 0; b < 5; b++) {
        const t = Date.now();
        await post(port, '/baseline', {});
        baselines.push(Date.now() - t);
      }
      await stop(server);
      rmSync(fresh.slice('file:'.length), { force: true });
      const memory: Record<string, number> = {};
      for (const episodes of [10_000, 100_000]) {
        const file = join(dir, `audit-${episodes}.db`);
        if (!existsSync(file)) {
          migrateDatabase(`file:${file}`);
          generateAuditDataset(file, { episodes, actionsPerEpisode: 10, tenants: ['big-lab', 'lab-b', 'lab-c', 'lab-d'] });
        }
        memory[`rss_mb_after_traffic_${episodes}_episodes`] = Number((await memoryAfterTraffic(`file:${file}`, port)).toFixed(1));
      }
      const figures = {
        cold_start_to_healthy_ms_median_of_5: median(starts),
        reset_latency_ms_p50_of_200: Number(median(resets).toFixed(2)),
        baseline_all_tasks_ms_median_of_5: median(baselines),
        ...memory,
      };
      console.log('server figures (2-core machine; figures vary):');
      console.table(figures);
      writeFileSync(join(dir, 'server.json'), `${JSON.stringify(figures, null, 2)}\n`);
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
