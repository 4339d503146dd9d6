import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCommandLine } from '../cli/command-line';
import { STEP_STAGES_COMMAND } from './bench.commands';
import { ROOT, toolScript, waitHealthy } from './server-process';

/*
 * `npm run bench:stages`: where a step request's time goes. Starts the built server under V8's CPU profiler, loads
 * it with the shared kit's plan (mix-load.js, BENCH_CLIENTS clients, BENCH_SECONDS), stops it so the profile is
 * written, and attributes every sample to a stage of the request: the innermost frame of its stack that names one.
 * Node's own frames (HTTP parser, sockets, timers, promise machinery) take what no stage is above; start-up is left
 * out. Prints a table: each stage's share of the request work and its microseconds per step (resets spread over
 * the steps). The profiler itself inflates times by about a fifth; the shares are the figure to compare.
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Stages in the order they are tried on each frame, from the leaf up. */
const STAGES: Array<[string, RegExp]> = [
  ['logging', /request-logging|\/pino\/|sonic-boom/],
  ['Host/Origin check', /host-allow-list/],
  ['authentication and rate limit', /authentication-hook|request-authentication|authenticator|rate-limiter|rate-limits|auth\.guard/],
  ['body parsing and input checks', /json-body-parser|content-type-parser|json-input/],
  ['validation and transformation', /common\/validation|class-validator|class-transformer|\/ajv\/|body-check|compiled-body-checks/],
  ['persistence: SQL, chain link, ledger entry, COMMIT', /group-commit|sqlite-episode\.repository|episode-statements|ledger-|hash-chain|better-sqlite3|database\.service|chain-keys/],
  ['search (MiniSearch: indexes and queries)', /minisearch|policy-search|stopword/],
  ['grading', /engine\/grader|engine\/graders/],
  ['engine step and reset (state, drawing the instance)', /engine\/engine|engine\/state|engine\/observation|families\/|task-catalog|seeded-order/],
  ['service and presenting the response', /episodes\.service|episode\.presenter|episodes\.controller|step-batch|canonical-json|canonicalize|keyed-serializer|active-episode-cache/],
  ['routing and framework (Fastify, Nest)', /find-my-way|\/fastify\/|@nestjs|avvio|rxjs/],
  ['Node: HTTP parser, sockets, timers, promises', /^node:/],
];
const START_UP = /^bootstrap$|Module\._load|executeUserEntryPoint/;

function attribute(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOf = (leaf: number): string => {
    const name = byId.get(leaf)!.callFrame.functionName;
    if (name === '(idle)') return 'idle';
    if (name === '(garbage collector)') return 'garbage collection';
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) if (START_UP.test(byId.get(id)!.callFrame.functionName)) return 'start-up';
    for (let id: number | undefined = leaf; id !== undefined; id = parent.get(id)) {
      const url = byId.get(id)!.callFrame.url;
      const stage = STAGES.find(([, pattern]) => pattern.test(url));
      if (stage) return stage[0];
    }
    return 'V8 and native, unattributed';
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((sample, i) => {
    const stage = stageOf(sample);
    totals.set(stage, (totals.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return totals;
}

async function main(): Promise<void> {
  readCommandLine(STEP_STAGES_COMMAND);
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-stages-'));
  const port = 17000 + Math.floor(Math.random() * 1000);
  const server = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: `file:${join(dir, 'bench.db')}`, RATE_LIMIT_PER_MINUTE: '0', MAX_ACTIVE_EPISODES_PER_TENANT: '0', LOG_LEVEL: 'log' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  await waitHealthy(`http://127.0.0.1:${port}`, 30_000);
  const out = execFileSync(process.execPath, [toolScript('bench', 'mix-load.js'), `http://127.0.0.1:${port}`, String(CLIENTS), String(SECONDS), 'kit', 'http'], { encoding: 'utf8' });
  const load = JSON.parse(out.trim().split('\n').pop()!) as { steps_per_s: number; resets_per_s: number; seconds: number };
  // SIGINT lets Node write the profile on the way out (the server closes as on SIGTERM).
  server.kill('SIGINT');
  await exited;
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`the server wrote no CPU profile in ${dir}`);
  const totals = attribute(JSON.parse(readFileSync(join(dir, file), 'utf8')));
  rmSync(dir, { recursive: true, force: true });
  const steps = Math.round(load.steps_per_s * load.seconds);
  const resets = Math.round(load.resets_per_s * load.seconds);
  const work = [...totals].filter(([stage]) => stage !== 'start-up' && stage !== 'idle').reduce((sum, [, t]) => sum + t, 0);
  const rows = [...totals]
    .filter(([stage]) => stage !== 'start-up' && stage !== 'idle')
    .sort((a, b) => b[1] - a[1])
    .map(([stage, t]) => ({ stage, share: `${((100 * t) / work).toFixed(1)}%`, us_per_step: Math.round(t / steps) }));
  console.log(`stages of a step request: kit plan over HTTP, ${CLIENTS} clients, ${SECONDS}s; ${steps} steps and ${resets} resets; idle ${((100 * (totals.get('idle') ?? 0)) / (work + (totals.get('idle') ?? 0))).toFixed(0)}% of the run`);
  console.table(rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
