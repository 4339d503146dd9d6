import 'reflect-metadata';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { createApp } from '../../src/app/create-app';
import { loadConfig } from '../../src/config/app-config';
import { migrateDatabase } from '../../src/database/migrate';
import { readCommandLine } from '../cli/command-line';
import { RUNS_BENCH_COMMAND } from './bench.commands';
import { BIG_RUNS, generateRunsDataset, RUN_SHAPE } from './runs-dataset';

/*
 * `npm run bench:runs`: the run routes' figures of issue 25 on the real app, over HTTP, in open mode (the open-mode
 * user reads results): each the median and p95 of 30 requests after 5 warm-ups, with GET /health timed alongside
 * as the floor of the machine's load at that moment.
 */

const REQUESTS = 30;

async function time(url: string): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS + 5; i++) {
    const started = process.hrtime.bigint();
    const res = await fetch(url);
    const body = await res.text();
    if (!res.ok) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
    if (i >= 5) samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)], p95: samples[Math.floor(samples.length * 0.95)] };
}

async function main(): Promise<void> {
  readCommandLine(RUNS_BENCH_COMMAND);
  const dir = resolve('data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'runs.db');
  if (!existsSync(file)) {
    console.log(`generating ${RUN_SHAPE.runs} runs in ${file} ...`);
    migrateDatabase(`file:${file}`);
    generateRunsDataset(file);
  }
  const raw = new Database(file);
  console.log('dataset:', raw.prepare('SELECT (SELECT COUNT(*) FROM runs) AS runs, (SELECT COUNT(*) FROM run_cells) AS cells, (SELECT COUNT(*) FROM episodes) AS episodes').get());

  const app = await createApp(loadConfig({ DATABASE_URL: `file:${file}`, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '0' }));
  await app.listen(0, '127.0.0.1');
  const base = await app.getUrl();
  const [a, b] = BIG_RUNS;
  const rows: [string, { median: number; p95: number }, number | null][] = [];
  const measure = async (name: string, path: string, target: number | null) => {
    const floor = await time(`${base}/health`);
    rows.push([`GET /health (floor, before the next)`, floor, null]);
    rows.push([name, await time(`${base}${path}`), target]);
  };
  // Uncached: a run still open is never cached, so its results are computed on every request (the same work as a
  // complete run's first read).
  raw.prepare("UPDATE runs SET status = 'open', completed_at = NULL WHERE id = ?").run(a);
  await measure(`GET /runs/{id}, ${RUN_SHAPE.families}×${RUN_SHAPE.seeds}×${RUN_SHAPE.trials}, uncached`, `/runs/${a}`, 150);
  raw.prepare("UPDATE runs SET status = 'complete', completed_at = created_at WHERE id = ?").run(a);
  await measure('GET /runs/{id}, complete (cached after the first read)', `/runs/${a}`, null);
  await measure(`GET /runs, a tenant with ${RUN_SHAPE.runs} runs (page of 50)`, '/runs', 50);
  await measure('GET /runs/{a}/compare/{b}, 1,200 paired cells', `/runs/${a}/compare/${b}`, 200);
  raw.close();
  await app.close();

  console.log(`\n${'route'.padEnd(62)} ${'median ms'.padStart(10)} ${'p95 ms'.padStart(8)} ${'target'.padStart(8)}`);
  for (const [name, result, target] of rows) {
    const verdict = target === null ? '' : result.median < target ? `< ${target} ok` : `> ${target} MISSED`;
    console.log(`${name.padEnd(62)} ${result.median.toFixed(1).padStart(10)} ${result.p95.toFixed(1).padStart(8)} ${verdict.padStart(14)}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
