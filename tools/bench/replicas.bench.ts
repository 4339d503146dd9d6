import 'reflect-metadata';
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { migrateDatabase } from '../../src/database/migrate';
import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { startTopology, type Topology } from '../replicas/topology';
import { REPLICAS_BENCH_COMMAND } from './bench.commands';
import { ROOT, spawnServer, stopServer, toolScript, waitHealthy } from './server-process';

/*
 * `npm run bench:replicas`: steps per second and latency at 32 and 128 clients, each client stepping its own
 * episode (tools/bench/step-load.ts), on five set-ups in one run:
 *  - sqlite: one server on SQLite, no load balancer (the embedded default: the reference);
 *  - pg-direct: one server on PostgreSQL, no load balancer;
 *  - pg-direct-uncached: the same with no active-episode cache (EPISODE_CACHE_SIZE=0), which is what round-robin
 *    makes of it with two replicas: each step of an episode lands on the other replica than the one before;
 *  - pg-lb-1, pg-lb-2: one, then two replicas on PostgreSQL behind HAProxy (deploy/haproxy.cfg, the scale profile's);
 * and, for each, where the CPU time went: seconds of CPU per 1,000 steps of the replicas, HAProxy, PostgreSQL's
 * processes and the load generator (/proc/<pid>/stat), so the figures say what more replicas and cores would buy.
 * BENCH_SECONDS (8) a point, the median of BENCH_RUNS (3); each PostgreSQL set-up on a fresh database.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CLIENTS = [32, 128];
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

interface Load {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

interface SetUp {
  name: string;
  base: string;
  /** The processes whose CPU time is counted, by role. */
  pids(): Record<string, number[]>;
  stop(): Promise<void>;
}

/** CPU seconds a process has used so far (user + system), 0 once it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return 0;
  }
}

/** PostgreSQL's server processes (the postmaster's children: backends, WAL writer, checkpointer…). */
function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** CPU seconds of this process's children that have ended and been waited for (the load generators). */
function endedChildrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) / TICKS;
}

/** One point: the load, and each role's CPU seconds per 1,000 steps meanwhile (the generator's from its own process). */
async function measure(setUp: SetUp, clients: number): Promise<{ load: Load; cpuPer1000: Record<string, number> }> {
  const roles = setUp.pids();
  const before = Object.fromEntries(Object.entries(roles).map(([role, pids]) => [role, pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0)]));
  const generator = spawn(process.execPath, [toolScript('bench', 'step-load.js'), setUp.base, String(clients), String(SECONDS), 'step'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  generator.stdout!.on('data', (chunk) => (out += chunk));
  const childrenBefore = endedChildrenCpuSeconds();
  await new Promise((resolve) => generator.once('exit', resolve));
  const generatorCpu = endedChildrenCpuSeconds() - childrenBefore;
  const load = JSON.parse(out.trim().split('\n').pop()!) as Load;
  const steps = Math.max(1, load.requests) / 1000;
  const cpuPer1000: Record<string, number> = {};
  for (const [role, pids] of Object.entries(roles)) {
    const used = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - before[role];
    cpuPer1000[role] = Number((used / steps).toFixed(3));
  }
  cpuPer1000.load_generator = Number((generatorCpu / steps).toFixed(3));
  return { load, cpuPer1000 };
}

async function freshDatabase(adminUrl: string, label: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sd_bench_${label}_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

const SERVER_ENV = { RATE_LIMIT_PER_MINUTE: '0', MAX_ACTIVE_EPISODES_PER_TENANT: '0', CHAIN_KEY: 'bench-chain-key-'.padEnd(64, 'b') };

async function sqliteServer(dir: string): Promise<SetUp> {
  const databaseUrl = `file:${join(dir, 'bench.db')}`;
  migrateDatabase(databaseUrl);
  const port = 17000 + Math.floor(Math.random() * 1000);
  const server = spawnServer({ ...SERVER_ENV, DATABASE_URL: databaseUrl, PORT: String(port), LEDGER_CHECKPOINT_FILE: join(dir, 'sqlite.checkpoints') });
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(base, 30_000);
  return { name: 'sqlite', base, pids: () => ({ replicas: [server.pid!] }), stop: () => stopServer(server) };
}

/**
 * One server on PostgreSQL without the balancer; `uncached`: with no active-episode cache, as every step is on
 * replicas that take turns on each episode (the copy a replica kept is always one the other has advanced).
 */
async function postgresDirect(adminUrl: string, dir: string, uncached = false): Promise<SetUp> {
  const label = uncached ? 'uncached' : 'direct';
  const db = await freshDatabase(adminUrl, label);
  const port = 18000 + Math.floor(Math.random() * 1000);
  const server = spawnServer({
    ...SERVER_ENV,
    ...(uncached ? { EPISODE_CACHE_SIZE: '0' } : {}),
    DATABASE_URL: db.url,
    PORT: String(port),
    LEDGER_CHECKPOINT_FILE: join(dir, `${label}.checkpoints`),
  });
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(base, 30_000);
  return {
    name: uncached ? 'pg-direct-uncached' : 'pg-direct',
    base,
    pids: () => ({ replicas: [server.pid!], postgresql: postgresPids() }),
    stop: async () => {
      await stopServer(server);
      await db.drop();
    },
  };
}

async function postgresBalanced(adminUrl: string, dir: string, replicas: number): Promise<SetUp> {
  const db = await freshDatabase(adminUrl, `lb${replicas}`);
  const topology: Topology = await startTopology(replicas, { ...SERVER_ENV, DATABASE_URL: db.url, LEDGER_CHECKPOINT_FILE: join(dir, `lb${replicas}.checkpoints`) });
  const haproxy = Number(execFileSync('pgrep', ['-n', 'haproxy'], { encoding: 'utf8' }).trim());
  return {
    name: `pg-lb-${replicas}`,
    base: topology.base,
    pids: () => ({ replicas: topology.replicas.map((r) => r.process.pid!), haproxy: [haproxy], postgresql: postgresPids() }),
    stop: async () => {
      await topology.stop();
      await db.drop();
    },
  };
}

const median = <T>(points: T[], by: (point: T) => number): T => [...points].sort((a, b) => by(a) - by(b))[Math.floor(points.length / 2)];

async function main(): Promise<void> {
  readCommandLine(REPLICAS_BENCH_COMMAND);
  const adminUrl = process.env.BENCH_POSTGRES_URL;
  if (!adminUrl) refuseCommandLine(REPLICAS_BENCH_COMMAND, 'BENCH_POSTGRES_URL must name a PostgreSQL role that may create databases');
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-bench-replicas-'));
  const rows: Array<Record<string, unknown>> = [];
  const makers: Array<() => Promise<SetUp>> = [
    () => sqliteServer(dir),
    () => postgresDirect(adminUrl!, dir),
    () => postgresDirect(adminUrl!, dir, true),
    () => postgresBalanced(adminUrl!, dir, 1),
    () => postgresBalanced(adminUrl!, dir, 2),
  ];
  try {
    for (const make of makers) {
      const setUp = await make();
      try {
        for (const clients of CLIENTS) {
          const runs = [];
          for (let i = 0; i < RUNS; i++) runs.push(await measure(setUp, clients));
          const { load, cpuPer1000 } = median(runs, (run) => run.load.rps);
          rows.push({
            set_up: setUp.name,
            clients,
            steps_per_s: Math.round(load.rps),
            p50_ms: Number(load.p50.toFixed(1)),
            p99_ms: Number(load.p99.toFixed(1)),
            errors: load.errors,
            cpu_s_per_1000_steps: cpuPer1000,
          });
          console.error(`${setUp.name} ${clients} clients: ${Math.round(load.rps)} steps/s, p99 ${load.p99.toFixed(1)} ms`);
        }
      } finally {
        await setUp.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cores = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  console.log(`replicas benchmark (${SECONDS}s per point, median of ${RUNS} runs; ${cores} cores; PostgreSQL, HAProxy, the replicas and the load generator on this one machine)`);
  console.table(rows.map(({ cpu_s_per_1000_steps, ...row }) => ({ ...row, ...Object.fromEntries(Object.entries(cpu_s_per_1000_steps as Record<string, number>).map(([role, s]) => [`cpu_${role}`, s])) })));
  mkdirSync(join(ROOT, 'data', 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'data', 'bench', 'replicas.json'), `${JSON.stringify({ seconds: SECONDS, runs: RUNS, cores, rows }, null, 2)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
