import 'reflect-metadata';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommandLine } from '../cli/command-line';
import { SIDE_BY_SIDE_COMMAND, type MixLoadPlan, type MixLoadTransport } from './bench.commands';
import { ROOT, spawnServer, stopServer, toolScript, waitHealthy } from './server-process';

/*
 * `npm run bench:side-by-side`: this server against the anchor, a stand-in for the original environment's stack
 * (tools/bench/anchor, copied from the shared throughput kit: FastAPI + uvicorn, episodes in a Python dict, no
 * persistence), under the same closed-loop loads on the same machine, alternating point by point so both see the
 * same machine. Ratios are of medians over BENCH_RUNS rounds, each from the same run. The server runs as production
 * does (dist/main.js, synchronous=FULL, every step durable, hash-chained and ledgered before it is answered), with
 * the rate limits lifted and an admin key to issue the agent key of the keys-mode points.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ADMIN_KEY = 'bench-admin-key-0123456789abcdef';
const ANCHOR_DIR = join(ROOT, 'tools', 'bench', 'anchor');

interface Figures {
  steps_per_s: number;
  p50_ms: number;
  p99_ms: number;
  reset_p50_ms?: number;
  reset_p99_ms?: number;
  errors: number;
}

/** The kit's own load generator (loadgen.mjs), as the kit runs it. */
function kitLoad(base: string, clients: number, key?: string): Figures {
  const headers = JSON.stringify(key ? { authorization: `Bearer ${key}` } : {});
  const out = execFileSync(process.execPath, [join(ANCHOR_DIR, 'loadgen.mjs'), base, String(clients), String(SECONDS), headers], { encoding: 'utf8' });
  const line = JSON.parse(out.trim().split('\n').pop()!) as { steps_per_s: number; p50_ms: number; p99_ms: number; errors: number };
  return { steps_per_s: line.steps_per_s, p50_ms: line.p50_ms, p99_ms: line.p99_ms, errors: line.errors };
}

/** This project's load generator (mix-load.ts): the realistic mix, and the transports the kit does not speak. */
function mixLoad(base: string, clients: number, plan: MixLoadPlan, transport: MixLoadTransport, key?: string): Figures {
  const args = [toolScript('bench', 'mix-load.js'), base, String(clients), String(SECONDS), plan, transport, ...(key ? [key] : [])];
  const line = JSON.parse(execFileSync(process.execPath, args, { encoding: 'utf8' }).trim().split('\n').pop()!);
  return {
    steps_per_s: line.steps_per_s,
    p50_ms: line.step_p50_ms,
    p99_ms: line.step_p99_ms,
    reset_p50_ms: line.reset_p50_ms,
    reset_p99_ms: line.reset_p99_ms,
    errors: line.errors,
  };
}

function startAnchor(port: number): ChildProcess {
  const probe = spawnSync('/usr/bin/python3', ['-c', 'import fastapi, uvicorn'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new Error("the anchor needs Debian's python3-fastapi and python3-uvicorn: apt-get install -y python3-fastapi python3-uvicorn");
  }
  return spawn('/usr/bin/python3', [join(ANCHOR_DIR, 'anchor_fastapi.py'), String(port)], { stdio: 'ignore' });
}

async function agentKey(base: string): Promise<string> {
  const asAdmin = { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_KEY}` };
  const tenant = await fetch(`${base}/admin/tenants`, { method: 'POST', headers: asAdmin, body: JSON.stringify({ slug: 'bench-lab', name: 'Bench lab' }) });
  if (!tenant.ok) throw new Error(`creating the bench tenant answered ${tenant.status}`);
  const key = await fetch(`${base}/admin/tenants/bench-lab/keys`, { method: 'POST', headers: asAdmin, body: JSON.stringify({ name: 'bench agent', scope: 'agent' }) });
  if (!key.ok) throw new Error(`issuing the bench key answered ${key.status}`);
  return ((await key.json()) as { key: string }).key;
}

/** The median run of a point, by steps per second (its latencies are that run's). */
function median(runs: Figures[]): Figures {
  return [...runs].sort((a, b) => a.steps_per_s - b.steps_per_s)[Math.floor(runs.length / 2)];
}

const ratio = (a: Figures, b: Figures) => Number((a.steps_per_s / Math.max(1, b.steps_per_s)).toFixed(2));

async function main(): Promise<void> {
  readCommandLine(SIDE_BY_SIDE_COMMAND);
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-side-by-side-'));
  const port = 17000 + Math.floor(Math.random() * 1000);
  const anchorPort = port + 1000;
  const project = `http://127.0.0.1:${port}`;
  const anchorBase = `http://127.0.0.1:${anchorPort}`;
  const server = spawnServer({
    DATABASE_URL: `file:${join(dir, 'bench.db')}`,
    PORT: String(port),
    RATE_LIMIT_PER_MINUTE: '0',
    MAX_ACTIVE_EPISODES_PER_TENANT: '0',
    MAX_SESSIONS_PER_TENANT: '1000',
    ADMIN_API_KEY: ADMIN_KEY,
    // Request lines are written as in production (LOG_LEVEL=log), to a file rather than a terminal.
    LOG_LEVEL: 'log',
  }, 'ignore');
  const anchor = startAnchor(anchorPort);
  try {
    await waitHealthy(project, 30_000);
    await waitHealthy(anchorBase, 30_000);
    const key = await agentKey(project);
    // Points, in the order each round runs them: [name, load].
    const points: Array<[string, () => Figures]> = [
      ['anchor kit http 32', () => kitLoad(anchorBase, 32)],
      ['project kit http 32', () => kitLoad(project, 32)],
      ['project kit http 32 keys', () => kitLoad(project, 32, key)],
      ['anchor kit http 1', () => kitLoad(anchorBase, 1)],
      ['project kit http 1', () => kitLoad(project, 1)],
      ['project kit http 1 keys', () => kitLoad(project, 1, key)],
      ['anchor mix http 32', () => mixLoad(anchorBase, 32, 'mix-anchor', 'http')],
      ['project mix http 32', () => mixLoad(project, 32, 'mix', 'http')],
      ['project mix http 32 keys', () => mixLoad(project, 32, 'mix', 'http', key)],
      ['project mix ws 32', () => mixLoad(project, 32, 'mix', 'ws')],
      ['project mix mcp 32', () => mixLoad(project, 32, 'mix', 'mcp')],
      ['anchor kit http 32 (mix-load)', () => mixLoad(anchorBase, 32, 'kit', 'http')],
      ['project kit http 32 (mix-load)', () => mixLoad(project, 32, 'kit', 'http')],
      ['project kit ws 32', () => mixLoad(project, 32, 'kit', 'ws')],
      ['project kit batch 32', () => mixLoad(project, 32, 'kit', 'batch')],
      ['project mix batch 32', () => mixLoad(project, 32, 'mix', 'batch')],
    ];
    const runs = new Map<string, Figures[]>(points.map(([name]) => [name, []]));
    for (let round = 1; round <= RUNS; round++) {
      for (const [name, load] of points) {
        const figures = load();
        runs.get(name)!.push(figures);
        console.error(`round ${round}/${RUNS} ${name}: ${JSON.stringify(figures)}`);
      }
    }
    const m = (name: string) => median(runs.get(name)!);
    const rows = points.map(([name]) => ({ point: name, ...m(name) }));
    const ratios = {
      kit_http_32_open: ratio(m('project kit http 32'), m('anchor kit http 32')),
      kit_http_32_keys: ratio(m('project kit http 32 keys'), m('anchor kit http 32')),
      kit_http_1_open: ratio(m('project kit http 1'), m('anchor kit http 1')),
      kit_http_1_keys: ratio(m('project kit http 1 keys'), m('anchor kit http 1')),
      mix_http_32: ratio(m('project mix http 32'), m('anchor mix http 32')),
      mix_http_32_keys: ratio(m('project mix http 32 keys'), m('anchor mix http 32')),
      kit_ws_32_vs_anchor_http: ratio(m('project kit ws 32'), m('anchor kit http 32 (mix-load)')),
      mix_ws_32_vs_anchor_http: ratio(m('project mix ws 32'), m('anchor mix http 32')),
      kit_batch_vs_single: ratio(m('project kit batch 32'), m('project kit http 32 (mix-load)')),
      mix_batch_vs_single: ratio(m('project mix batch 32'), m('project mix http 32')),
    };
    console.log(`side by side (${SECONDS}s per point, median of ${RUNS} alternating rounds; load generator on the same 2 cores)`);
    console.table(rows);
    console.table([ratios]);
    mkdirSync(join(ROOT, 'data', 'bench'), { recursive: true });
    writeFileSync(join(ROOT, 'data', 'bench', 'side-by-side.json'), `${JSON.stringify({ seconds: SECONDS, runs: RUNS, rows, ratios }, null, 2)}\n`);
  } finally {
    anchor.kill('SIGTERM');
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
