import 'reflect-metadata';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { migrateDatabase } from '../../src/database/migrate';
import { episodeSerial, tenantSerial } from '../../src/episodes/log-columns';
import { readCommandLine } from '../cli/command-line';
import { STEP_THROUGHPUT_COMMAND } from './bench.commands';
import { ROOT, spawnServer, toolScript, waitHealthy } from './server-process';

/*
 * `npm run bench:steps`: step throughput and latency over HTTP with full persistence, for 1, 8 and 32 clients
 * each stepping its own episode, against floors measured in the same run:
 *  - framework floors: Nest 11 answering a constant step-sized response, on Fastify (the server's platform) and
 *    on express (the platform before), each its own process (floor-server.js);
 *  - storage floor: the same per-step writes (episode update + action-log insert, one transaction) done directly
 *    with better-sqlite3 in a loop, with the server's pragmas.
 * Also measured on the server itself: the request pipeline alone (the same step body for an unknown episode, 404),
 * to tell the cost of the HTTP pipeline from the cost of the step. The same steps are also measured over OpenEnv
 * WebSocket sessions (/ws). The server and the load generator run
 * as separate processes on this machine. BENCH_SECONDS (default 8) per
 * point; median of BENCH_RUNS (default 3) runs per point. Results: printed table and data/bench/steps.json.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CLIENTS = [1, 8, 32];
const SYNCHRONOUS = process.env.SQLITE_SYNCHRONOUS ?? 'FULL';
/** A role that may create databases: the steps are measured on PostgreSQL too, beside SQLite, in the same run. */
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL;

interface Load {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

function start(script: string, args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; port: number }> {
  return new Promise((resolvePort, reject) => {
    const child = spawn(process.execPath, [toolScript(script), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolvePort({ child, port: Number(match[1]) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function load(port: number, clients: number, mode: 'step' | 'constant' | 'pipeline' | 'ws'): Load {
  const out = execFileSync(process.execPath, [toolScript('bench', 'step-load.js'), `http://127.0.0.1:${port}`, String(clients), String(SECONDS), mode], {
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Load;
}

function median(values: Load[]): Load {
  const sorted = [...values].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The per-step writes of the server, straight through better-sqlite3: what SQLite itself allows. */
function storageFloor(file: string, seconds: number): { rps: number } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${SYNCHRONOUS}`);
  db.prepare("INSERT OR IGNORE INTO tenants (id, slug, name, created_at) VALUES ('floor', 'floor', 'floor', 1767225600000)").run();
  db.prepare("INSERT OR IGNORE INTO task_versions (task_id, version, content_json, synced_at) VALUES ('floor', 'v', '{}', 1767225600000)").run();
  const state = JSON.stringify({ padding: 'x'.repeat(4000) });
  db.prepare(`INSERT INTO episodes (id, tenant_id, task_id, task_version, seed, status, step_count, score_milli, version, state_json, created_at, updated_at)
    VALUES ('floor-episode', 'floor', 'floor', 'v', 1, 'active', 0, 0, 0, ?, 1767225600000, 1767225600000)`).run(state);
  const update = db.prepare('UPDATE episodes SET version = ?, step_count = ?, state_json = ?, score_milli = ?, chain_head = ?, updated_at = ? WHERE id = ? AND tenant_id = ? AND version = ?');
  // The row carries the step's ledger entry, as the server writes it (src/episodes/ledger/ledger-rows.ts).
  // It names its episode and tenant by their serials, looked up as the server does (src/episodes/log-columns.ts).
  const insert = db.prepare(`INSERT INTO action_log (episode_serial, tenant_serial, step_index, action_json, reward_milli, score_after_milli, outcome, error, created_at, hash, ledger_seq, ledger_mac)
    VALUES (${episodeSerial("'floor-episode'", "'floor'")}, ${tenantSerial("'floor'")}, ?, '{"query":"q","type":"search_policy"}', 0, 0, 'search returned 5 article(s)', NULL, ?, ?, ?, ?)`);
  const mac = Buffer.alloc(32, 7);
  const stepOnce = db.transaction((i: number) => {
    const now = Date.now();
    update.run(i, i, state, 0, 'h'.repeat(64), now, 'floor-episode', 'floor', i - 1);
    insert.run(i, Date.now(), mac, i, mac);
  });
  const deadline = Date.now() + seconds * 1000;
  const started = Date.now();
  let i = 0;
  while (Date.now() < deadline) stepOnce(++i);
  const elapsed = (Date.now() - started) / 1000;
  db.close();
  return { rps: i / elapsed };
}

async function main(): Promise<void> {
  readCommandLine(STEP_THROUGHPUT_COMMAND);
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-bench-'));
  const databaseUrl = `file:${join(dir, 'bench.db')}`;
  migrateDatabase(databaseUrl);

  const fastifyFloor = await start('bench/floor-server.js', ['fastify'], { PORT: '0' });
  const expressFloor = await start('bench/floor-server.js', ['express'], { PORT: '0' });
  const appPort = 17000 + Math.floor(Math.random() * 1000);
  const app = spawnServer({
    DATABASE_URL: databaseUrl,
    PORT: String(appPort),
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_ACTIVE_EPISODES_PER_TENANT: '0',
    SQLITE_SYNCHRONOUS: SYNCHRONOUS,
  });
  await waitHealthy(`http://127.0.0.1:${appPort}`);
  const postgres = POSTGRES_ADMIN_URL ? await startOnPostgres(POSTGRES_ADMIN_URL, appPort + 1) : null;

  const rows: Record<string, unknown>[] = [];
  try {
    migrateDatabase(`file:${join(dir, 'floor.db')}`);
    const storage = storageFloor(join(dir, 'floor.db'), SECONDS);
    for (const clients of CLIENTS) {
      const framework = median(Array.from({ length: RUNS }, () => load(fastifyFloor.port, clients, 'constant')));
      const express = median(Array.from({ length: RUNS }, () => load(expressFloor.port, clients, 'constant')));
      const steps = median(Array.from({ length: RUNS }, () => load(appPort, clients, 'step')));
      const wsSteps = median(Array.from({ length: RUNS }, () => load(appPort, clients, 'ws')));
      const pipeline = median(Array.from({ length: RUNS }, () => load(appPort, clients, 'pipeline')));
      const pgSteps = postgres ? median(Array.from({ length: RUNS }, () => load(postgres.port, clients, 'step'))) : null;
      rows.push({
        clients,
        step_rps: Math.round(steps.rps),
        step_p50_ms: Number(steps.p50.toFixed(2)),
        step_p99_ms: Number(steps.p99.toFixed(2)),
        step_errors: steps.errors,
        ws_step_rps: Math.round(wsSteps.rps),
        ws_step_p99_ms: Number(wsSteps.p99.toFixed(2)),
        framework_rps: Math.round(framework.rps),
        framework_p99_ms: Number(framework.p99.toFixed(2)),
        express_floor_rps: Math.round(express.rps),
        storage_rps: Math.round(storage.rps),
        pipeline_rps: Math.round(pipeline.rps),
        pipeline_p99_ms: Number(pipeline.p99.toFixed(2)),
        vs_framework: Number((steps.rps / framework.rps).toFixed(3)),
        vs_storage: Number((steps.rps / storage.rps).toFixed(3)),
        ws_vs_framework: Number((wsSteps.rps / framework.rps).toFixed(3)),
        pipeline_vs_framework: Number((pipeline.rps / framework.rps).toFixed(3)),
        vs_express_floor: Number((steps.rps / express.rps).toFixed(3)),
        ...(pgSteps
          ? {
              pg_step_rps: Math.round(pgSteps.rps),
              pg_step_p50_ms: Number(pgSteps.p50.toFixed(2)),
              pg_step_p99_ms: Number(pgSteps.p99.toFixed(2)),
              pg_step_errors: pgSteps.errors,
              pg_vs_sqlite: Number((pgSteps.rps / steps.rps).toFixed(3)),
            }
          : {}),
      });
    }
  } finally {
    app.kill('SIGTERM');
    await postgres?.stop();
    fastifyFloor.child.kill('SIGTERM');
    expressFloor.child.kill('SIGTERM');
  }
  const where = postgres ? `; pg_*: the same steps on PostgreSQL ${postgres.version}, on this machine` : '';
  console.log(`step benchmark (synchronous=${SYNCHRONOUS}, ${SECONDS}s per point, median of ${RUNS} runs; 2-core machine, figures vary${where})`);
  console.table(rows);
  mkdirSync(join(ROOT, 'data', 'bench'), { recursive: true });
  writeFileSync(join(ROOT, 'data', 'bench', 'steps.json'), `${JSON.stringify({ synchronous: SYNCHRONOUS, seconds: SECONDS, runs: RUNS, rows }, null, 2)}\n`);
}

/** A second server on a fresh PostgreSQL database (dropped by `stop`), migrated by its own start-up. */
async function startOnPostgres(adminUrl: string, port: number): Promise<{ port: number; version: string; stop: () => Promise<void> }> {
  const name = `sd_bench_${process.pid}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  const version = (await admin.query<{ v: string }>(`SELECT current_setting('server_version') AS v`)).rows[0].v;
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const server = spawnServer({
    DATABASE_URL: url.toString(),
    CHAIN_KEY: 'bench-chain-key-'.padEnd(64, 'b'),
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_ACTIVE_EPISODES_PER_TENANT: '0',
  });
  await waitHealthy(`http://127.0.0.1:${port}`, 30_000);
  return {
    port,
    version,
    stop: async () => {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
