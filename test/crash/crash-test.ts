/*
 * `npm run test:crash`: kills the real server in the middle of concurrent traffic and checks that nothing it
 * acknowledged was lost and nothing was half-written.
 *
 * Each cycle starts the built server (dist/main.js) as a child process on the same SQLite file, drives
 * concurrent reset/step traffic from several clients (continuing episodes interrupted by earlier cycles),
 * records every acknowledged (2xx) step, and SIGKILLs the server at a seeded random moment. After every
 * restart it checks: every acknowledged step is in the log with the same reward and score; every episode's row
 * agrees with its log (no half-written step); each episode's hash chain verifies and its replay matches;
 * PRAGMA integrity_check is ok; interrupted episodes can be continued. A last run sends SIGTERM instead and
 * checks the graceful shutdown: requests in flight get their responses and the database is closed cleanly.
 *
 * CRASH_CYCLES (default 10) and CRASH_SEED (default 7) tune it.
 *
 * With CRASH_DATABASE_URL=postgresql://… (an empty database; CI makes one) it runs on PostgreSQL, with TWO server
 * processes per cycle sharing the database: the clients share one pool of episodes, so both servers step the same
 * episodes at once, and both are killed together. The same checks then also prove that two processes lose no update
 * (no step index is ever acknowledged twice) and keep every chain valid.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { Client } from 'pg';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import type { Action } from '../../src/engine/actions';
import { ROOT, spawnServer, waitHealthy } from '../../tools/bench/server-process';
import { migrateDatabase } from '../../src/database/migrate';
import { SOLUTIONS } from '../fixtures/solutions';

const CYCLES = Number(process.env.CRASH_CYCLES ?? 10);
const SEED = Number(process.env.CRASH_SEED ?? 7);
const CLIENTS = 8;
const POSTGRES_URL = process.env.CRASH_DATABASE_URL;
/** Server processes per cycle: two share a PostgreSQL database; a SQLite file has one. */
const SERVERS = POSTGRES_URL ? 2 : 1;
/** Servers on PostgreSQL share one chain key (app-config.ts); on SQLite the server keeps its own beside the file. */
const SERVER_ENV: Record<string, string> = POSTGRES_URL ? { CHAIN_KEY: 'crash-test-chain-key-'.padEnd(64, 'k') } : {};

const rng = xoroshiro128plus(SEED);
const random = (min: number, max: number) => uniformInt(rng, min, max);

/** Acknowledged steps: episode id -> step index -> reward and score after, in milli-points. */
const acknowledged = new Map<string, Map<number, { reward: number; score: number }>>();
const stats = { acknowledged: 0, refused: 0, lostInFlight: 0 };

function fail(message: string): never {
  throw new Error(`CRASH TEST FAILED: ${message}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The server processes of the moment, killed if the test fails so that no server outlives it. */
const live = new Set<ChildProcess>();

function startServer(databaseUrl: string, port: number): ChildProcess {
  // No cap on active episodes: many cycles open more than the default cap allows (the cap is tested elsewhere).
  const server = spawnServer({ DATABASE_URL: databaseUrl, PORT: String(port), RATE_LIMIT_PER_MINUTE: '0', MAX_ACTIVE_EPISODES_PER_TENANT: '0', ...SERVER_ENV });
  live.add(server);
  server.once('exit', () => live.delete(server));
  return server;
}

/** SERVERS server processes on the database, healthy; their base URLs. */
async function startServers(databaseUrl: string): Promise<Array<{ server: ChildProcess; base: string }>> {
  const started = [];
  for (let i = 0; i < SERVERS; i++) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    started.push({ server: startServer(databaseUrl, port), base });
    // One at a time: the first one migrates (the second would wait for its lock, then find nothing to do).
    await waitHealthy(base, 30_000);
  }
  return started;
}

/** What the database holds, read behind the servers' backs: SQLite's file (checked whole first), or PostgreSQL. */
interface StoredRecord {
  episodes: Array<{ id: string; step_count: number; version: number; status: string }>;
  logOf(id: string): Promise<Array<{ step_index: number; reward_milli: number; score_after_milli: number }>>;
  close(): Promise<void>;
}

const EPISODES = 'SELECT id, step_count, version, status FROM episodes';
const LOG = 'SELECT step_index, reward_milli, score_after_milli FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = $1) ORDER BY step_index';

async function openRecord(target: string): Promise<StoredRecord> {
  if (POSTGRES_URL) {
    const pg = new Client({ connectionString: target });
    await pg.connect();
    return {
      episodes: (await pg.query(EPISODES)).rows,
      logOf: async (id) => (await pg.query(LOG, [id])).rows,
      close: () => pg.end(),
    };
  }
  const db = new Database(target, { readonly: true });
  const integrity = db.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') fail(`integrity_check: ${integrity}`);
  const logOf = db.prepare(LOG.replace('$1', '?'));
  return {
    episodes: db.prepare(EPISODES).all() as StoredRecord['episodes'],
    logOf: async (id) => logOf.all(id) as Awaited<ReturnType<StoredRecord['logOf']>>,
    close: async () => void db.close(),
  };
}

/** Records a step the server acknowledged; one step index acknowledged twice is an update lost. */
function acknowledge(id: string, step: number, reward: number, score: number): void {
  const steps = acknowledged.get(id)!;
  if (steps.has(step)) fail(`step ${step} of ${id} was acknowledged twice: one of the two is lost`);
  steps.set(step, { reward: Math.round(reward * 1000), score: Math.round(score * 1000) });
}

async function post(base: string, path: string, body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

/** A plausible next action: mostly the task's correct trajectory, with detours and errors mixed in. */
function nextAction(taskId: string, stepIndex: number): Action {
  const actions = SOLUTIONS[taskId].actions;
  switch (random(0, 5)) {
    case 0:
      return { type: 'search_policy', query: `policy ${random(0, 999)}` };
    case 1:
      return { type: 'open_ticket', ticket_id: `T-${random(1000, 4000)}` };
    default:
      return actions[Math.min(stepIndex, actions.length - 2)]; // never the resolve: episodes stay open longer
  }
}

class Stopped extends Error {}

/** One client: steps its episodes until told to stop, recording what the server acknowledged. */
async function client(base: string, pool: string[], stop: { now: boolean }, inFlight: Set<Promise<unknown>>): Promise<void> {
  const taskIds = Object.keys(SOLUTIONS);
  // Every request is tracked while in flight, and none is sent once stopping has begun.
  const send = async <T>(request: () => Promise<T>): Promise<T> => {
    if (stop.now) throw new Stopped();
    const pending = request();
    inFlight.add(pending);
    try {
      return await pending;
    } finally {
      inFlight.delete(pending);
    }
  };
  while (!stop.now) {
    try {
      let episodeId = pool.length > 0 && random(0, 3) > 0 ? pool[random(0, pool.length - 1)] : null;
      if (episodeId === null) {
        const res = await send(() => post(base, '/reset', { task_id: taskIds[random(0, 2)], variant: 'canonical', seed: random(0, 1_000_000) }));
        if (res.status !== 200) fail(`reset answered ${res.status}`);
        episodeId = res.body.episode_id as string;
        pool.push(episodeId);
        acknowledged.set(episodeId, new Map());
      }
      const id = episodeId;
      const state = (await send(() => fetch(`${base}/state/${id}`).then((r) => r.json()))) as any;
      if (state.status !== 'active') {
        pool.splice(pool.indexOf(id), 1);
        continue;
      }
      const res = await send(() => post(base, '/step', { episode_id: id, action: nextAction(state.task_id, state.step_count) }));
      if (res.status === 200) {
        acknowledge(id, res.body.observation.step_count, res.body.reward, res.body.info.score);
        stats.acknowledged++;
      } else if (res.status === 409) {
        stats.refused++;
      } else {
        fail(`step answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
    } catch (error) {
      if (error instanceof Stopped) return;
      if ((error as Error).message.startsWith('CRASH TEST FAILED')) throw error;
      stats.lostInFlight++; // the server died under this request: it was never acknowledged
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

async function checkRecord(base: string, target: string): Promise<{ steps: number; episodes: number }> {
  const record = await openRecord(target);
  try {
    const episodes = record.episodes;
    let steps = 0;
    for (const episode of episodes) {
      const log = await record.logOf(episode.id);
      if (log.length !== episode.step_count || episode.version !== episode.step_count) {
        fail(`episode ${episode.id} is half-written: step_count ${episode.step_count}, version ${episode.version}, ${log.length} log rows`);
      }
      log.forEach((row, i) => row.step_index !== i + 1 && fail(`episode ${episode.id} has a gap in its log at ${i + 1}`));
      for (const [step, expected] of acknowledged.get(episode.id) ?? []) {
        const row = log[step - 1];
        if (!row) fail(`acknowledged step ${step} of ${episode.id} is missing`);
        if (row.reward_milli !== expected.reward || row.score_after_milli !== expected.score) {
          fail(`acknowledged step ${step} of ${episode.id} changed: ${JSON.stringify(row)} vs ${JSON.stringify(expected)}`);
        }
        steps++;
      }
      const report = (await fetch(`${base}/episodes/${episode.id}/verify`).then((r) => r.json())) as any;
      if (!report.chain_ok || !report.replay_ok) fail(`verify failed for ${episode.id}: ${JSON.stringify(report)}`);
    }
    for (const id of acknowledged.keys()) {
      if (!episodes.some((e) => e.id === id)) fail(`acknowledged episode ${id} is missing`);
    }
    const interrupted = episodes.filter((e) => e.status === 'active').slice(0, 3);
    for (const episode of interrupted) {
      const res = await post(base, '/step', { episode_id: episode.id, action: { type: 'search_policy', query: 'resume after crash' } });
      if (res.status !== 200) fail(`interrupted episode ${episode.id} cannot continue: ${res.status}`);
      if (acknowledged.has(episode.id)) acknowledge(episode.id, res.body.observation.step_count, res.body.reward, res.body.info.score);
    }
    return { steps, episodes: episodes.length };
  } finally {
    await record.close();
  }
}

async function exitOf(child: ChildProcess, timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return { code: child.exitCode, signal: child.signalCode };
  return new Promise((resolve) => {
    const timer = setTimeout(() => fail(`the server did not exit within ${timeoutMs} ms`), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) fail('dist/main.js is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-crash-'));
  const file = join(dir, 'crash.db');
  // On PostgreSQL the first server migrates the empty database; a SQLite file is migrated here first.
  const databaseUrl = POSTGRES_URL ?? `file:${file}`;
  const target = POSTGRES_URL ?? file;
  if (!POSTGRES_URL) migrateDatabase(databaseUrl);
  console.log(`crash test on ${POSTGRES_URL ? `PostgreSQL, ${SERVERS} server processes per cycle stepping the same episodes` : 'SQLite'}`);
  const pool: string[] = [];
  let checked = { steps: 0, episodes: 0 };

  for (let cycle = 1; cycle <= CYCLES; cycle++) {
    const servers = await startServers(databaseUrl);
    if (cycle > 1) checked = await checkRecord(servers[0].base, target);
    const stop = { now: false };
    const inFlight = new Set<Promise<unknown>>();
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(servers[i % SERVERS].base, pool, stop, inFlight));
    await new Promise((r) => setTimeout(r, random(300, 1500)));
    for (const { server } of servers) server.kill('SIGKILL');
    const cutOff = inFlight.size;
    for (const { server } of servers) await exitOf(server, 10_000);
    stop.now = true;
    await Promise.all(clients);
    console.log(`cycle ${cycle}/${CYCLES}: SIGKILL with ${cutOff} request(s) in flight; ${stats.acknowledged} steps acknowledged so far`);
  }

  // Graceful shutdown: SIGTERM under traffic; requests already sent must all be answered.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = startServer(databaseUrl, port);
  await waitHealthy(base);
  checked = await checkRecord(base, target);
  const stop = { now: false };
  const inFlight = new Set<Promise<unknown>>();
  const lostBefore = stats.lostInFlight;
  const clients = Array.from({ length: CLIENTS }, () => client(base, pool, stop, inFlight));
  await new Promise((r) => setTimeout(r, 800));
  stop.now = true; // no new requests once the signal is sent
  const pending = [...inFlight];
  server.kill('SIGTERM');
  const results = await Promise.allSettled(pending);
  const exit = await exitOf(server, 15_000);
  await Promise.all(clients);
  const unanswered = results.filter((r) => r.status === 'rejected').length;
  if (unanswered > 0) fail(`${unanswered} of ${pending.length} in-flight request(s) got no response during graceful shutdown`);
  if (stats.lostInFlight !== lostBefore) fail('a request failed during graceful shutdown');
  if (!(exit.code === 0 || exit.signal === 'SIGTERM' || exit.code === 143)) fail(`SIGTERM exit: ${JSON.stringify(exit)}`);
  if (!POSTGRES_URL && existsSync(`${file}-wal`)) fail('the WAL file is still there after SIGTERM: the database was not closed cleanly');
  console.log(`SIGTERM: ${pending.length} in-flight request(s) all answered; exit ${exit.signal ?? exit.code}; database closed cleanly`);

  const lastPort = await freePort();
  const lastBase = `http://127.0.0.1:${lastPort}`;
  const last = startServer(databaseUrl, lastPort);
  await waitHealthy(lastBase);
  checked = await checkRecord(lastBase, target);
  last.kill('SIGTERM');
  await exitOf(last, 15_000);

  console.log(
    `crash test passed: ${CYCLES} SIGKILL cycles + 1 SIGTERM (seed ${SEED}); ${stats.acknowledged} acknowledged steps, ` +
      `${checked.steps} checked against ${checked.episodes} episodes after the last restart; ` +
      `${stats.lostInFlight} request(s) cut off by kills (never acknowledged); ${stats.refused} step(s) refused on finished episodes`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  for (const server of live) server.kill('SIGKILL');
  process.exit(1);
});
