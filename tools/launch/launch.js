'use strict';
/*
 * `node tools/launch/launch.js [--server] <tool> [arguments…]`: runs build/tools/<tool>.js with the arguments,
 * compiling the tools first only when they changed since the last successful build (`npm run build:tools` takes a
 * minute; most runs change nothing). `--server` does the same for the server's build (dist/, `npm run build`) for
 * tools that start dist/main.js. The tool's exit code and signals pass through, as if it had been run directly.
 *
 * Plain JavaScript on purpose: it must run before anything is compiled.
 */
const { spawn } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync, writeFileSync } = require('node:fs');
const { constants } = require('node:os');
const { join, relative } = require('node:path');
const { sourcesAsOf, staleReason } = require('./staleness');

const ROOT = join(__dirname, '..', '..');

/**
 * Each build: the npm script that runs it, where its stamp lives (inside its output folder, which `nest build`
 * empties first, so a failed build leaves no stamp), and what it compiles from. Seeds are not inputs: the tools
 * read them at run time. Specs are left out: neither build compiles them.
 */
const TOOLS_BUILD = {
  script: 'build:tools',
  stamp: 'build/.launch-stamp.json',
  folders: ['src', 'tools'],
  files: ['tools/tsconfig.json', 'tsconfig.json', 'nest-cli.json', 'package-lock.json'],
};
const SERVER_BUILD = {
  script: 'build',
  stamp: 'dist/.launch-stamp.json',
  folders: ['src'],
  files: ['tsconfig.json', 'nest-cli.json', 'package-lock.json'],
};

async function main() {
  const args = process.argv.slice(2);
  const withServer = args[0] === '--server';
  if (withServer) args.shift();
  const tool = args.shift();
  if (!tool || tool.startsWith('-')) {
    process.stderr.write('usage: node tools/launch/launch.js [--server] <tool, e.g. agent/agent.cli> [arguments for the tool…]\n');
    process.exit(2);
  }
  // A mistyped name would otherwise look like a missing output and cost a whole build before failing.
  if (!existsSync(join(ROOT, 'tools', `${tool}.ts`))) {
    process.stderr.write(`launch: there is no tools/${tool}.ts\n`);
    process.exit(2);
  }
  if (withServer) await ensureBuilt(SERVER_BUILD, 'dist/main.js');
  const script = join('build', 'tools', `${tool}.js`);
  await ensureBuilt(TOOLS_BUILD, script);
  // The tool in this process's place: same streams and working folder, its exit code or signal ours.
  exitLike(await runForwardingSignals(process.execPath, [join(ROOT, script), ...args], { stdio: 'inherit' }));
}

async function ensureBuilt(build, output) {
  const inputs = listInputs(build);
  const reason = staleReason({ outputExists: existsSync(join(ROOT, output)), stamp: readStamp(build.stamp), inputs });
  if (!reason) return;
  process.stderr.write(`launch: npm run ${build.script} (${reason})\n`);
  const startedAtMs = Date.now();
  // npm_execpath is the npm that ran this script; without it (run by hand) the one on the PATH.
  const npm = process.env.npm_execpath;
  const [command, npmArgs] = npm ? [process.execPath, [npm]] : ['npm', []];
  const ended = await runForwardingSignals(command, [...npmArgs, 'run', '--silent', build.script], {
    cwd: ROOT,
    // The build's own output goes to stderr: a tool's stdout stays its own, the same whether it built first or not.
    stdio: ['ignore', 2, 2],
    shell: !npm && process.platform === 'win32',
    // Its own process group, signalled as a whole: npm runs the build under a shell that would not pass a signal on.
    detached: process.platform !== 'win32',
  });
  if (ended.signal || ended.code !== 0) exitLike(ended);
  const stamp = { sourcesAsOfMs: sourcesAsOf(startedAtMs), inputs: inputs.map((input) => input.path) };
  writeFileSync(join(ROOT, build.stamp), `${JSON.stringify(stamp)}\n`);
}

/** The last successful build's record, or null: none, or one this launcher cannot read, means build. */
function readStamp(path) {
  try {
    const stamp = JSON.parse(readFileSync(join(ROOT, path), 'utf8'));
    return typeof stamp.sourcesAsOfMs === 'number' && Array.isArray(stamp.inputs) ? stamp : null;
  } catch {
    return null;
  }
}

function listInputs(build) {
  const paths = [...build.folders.flatMap((folder) => sourcesUnder(join(ROOT, folder))), ...build.files.map((file) => join(ROOT, file))];
  return paths.filter((path) => existsSync(path)).map((path) => ({ path: relative(ROOT, path), mtimeMs: statSync(path).mtimeMs }));
}

function sourcesUnder(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourcesUnder(path);
    return entry.name.endsWith('.ts') && !/\.(e2e-)?spec\.ts$/.test(entry.name) ? [path] : [];
  });
}

/**
 * Runs a child and passes this process's SIGINT, SIGTERM and SIGHUP on to it (to its whole group when it leads
 * one), so stopping the launcher stops the build or the tool rather than orphaning it. Resolves with how it ended.
 */
function runForwardingSignals(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, options);
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const forward = (signal) => {
      try {
        if (options.detached) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // The group has already gone; its exit is on its way.
      }
    };
    for (const signal of signals) process.on(signal, forward);
    child.on('error', (error) => {
      process.stderr.write(`launch: could not start ${command}: ${error.message}\n`);
      process.exit(1);
    });
    child.on('exit', (code, signal) => {
      for (const name of signals) process.off(name, forward);
      resolve({ code, signal });
    });
  });
}

function exitLike({ code, signal }) {
  if (signal) {
    process.kill(process.pid, signal);
    // Still here: a signal Node ignores (SIGPIPE); exit as a shell reports a death by signal.
    process.exit(128 + (constants.signals[signal] ?? 0));
  }
  process.exit(code ?? 1);
}

main().catch((error) => {
  process.stderr.write(`launch: ${error.stack ?? error}\n`);
  process.exit(1);
});
