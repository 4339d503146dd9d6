import { spawnSync } from 'node:child_process';
import { readCommandLine } from '../cli/command-line';
import { BENCH_COMMAND } from './bench.commands';
import { ROOT, toolScript } from './server-process';

/**
 * `npm run bench`: bench:steps, bench:side-by-side, then bench:server, each its own process as when run alone. One entry point
 * rather than two commands joined with `&&` in package.json, so that `--help` or a mistyped flag is answered
 * before a benchmark runs for minutes.
 */
function main(): number {
  readCommandLine(BENCH_COMMAND);
  for (const script of ['step-throughput.bench.js', 'side-by-side.bench.js', 'server-figures.bench.js']) {
    const run = spawnSync(process.execPath, [toolScript('bench', script)], { cwd: ROOT, stdio: 'inherit' });
    if (run.status !== 0) return run.status ?? 1;
  }
  return 0;
}

process.exitCode = main();
