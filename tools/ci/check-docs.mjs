#!/usr/bin/env node
// Runs every command shown in README.md and docs/*.md, so the docs cannot drift from the server.
//
//   npm run build && node tools/ci/check-docs.mjs [file.md …] [--verbose]
//
// Per file, in a fresh temporary folder that links to the repository's files, against a server started for that
// file (the built dist/main.js, a fresh database, a free port):
//   bash / sh / console blocks  run in order in one shell (set -eo pipefail; curl with --fail-with-body);
//   ts blocks                   compiled with tsc --strict against the installed packages, then run;
//   python blocks               parsed with python3's ast module;  json blocks parsed.
// `localhost:7860` is rewritten to the server's port, `https://your-endpoint/v1` to a scripted OpenAI-compatible
// stub, and ADMIN_API_KEY is the server's admin key. A comment on the line before a block changes what is done:
//   <!-- docs-check: skip (reason) -->            not run, listed with its reason
//   <!-- docs-check: syntax-only (reason) -->     a python block that cannot run here
//   <!-- docs-check: compile-only (reason) -->    a ts block compiled but not run
//   <!-- docs-check: http-errors-expected -->     curl may get an HTTP error status in this block
// Relative links are checked as well: a missing anchor fails, a missing file is reported.
// Plain Node, no build step and no dependency beyond what `npm ci` installs.

import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOC_PORT = '7860';
const MODEL_PLACEHOLDER = 'https://your-endpoint/v1';
const FILE_TIMEOUT_MS = 15 * 60_000;
const SNIPPET_TIMEOUT_MS = 60_000;
const SHELL_LANGS = new Set(['bash', 'sh', 'shell', 'console']);
const TS_LANGS = new Set(['ts', 'typescript']);
const PY_LANGS = new Set(['python', 'py']);
const QUIET_LANGS = new Set(['text', 'json', 'yaml', 'md', 'markdown', 'http', 'diff']);
/** Commands that would act on the repository through the temporary folder's links. */
const UNSAFE = /\bnpm\s+(ci|install|i|uninstall|prune)\b|\bgit\b|\brm\s+-[a-z]*r/;
/** Variables of the developer's shell that would change what the server or the blocks do. */
const SCRUBBED_ENV = [
  'PORT', 'HOST', 'ALLOWED_HOSTS', 'ALLOWED_ORIGINS', 'DATABASE_URL', 'TASKS_DIR', 'REQUIRE_API_KEY',
  'ADMIN_API_KEY', 'ADMIN_API_KEY_FILE', 'CHAIN_KEY', 'CHAIN_KEY_FILE', 'CHAIN_RETIRED_KEYS_FILE',
  'PRIVATE_SPLIT_KEY', 'PRIVATE_SPLIT_KEY_FILE', 'PRIVATE_SPLIT_RETIRED_KEYS_FILE',
  'RATE_LIMIT_PER_MINUTE', 'SUPPORTDESK_API_KEY', 'API_BASE_URL', 'MODEL_NAME', 'API_KEY', 'HF_TOKEN',
  'OPENAI_API_KEY', 'LOG_LEVEL',
];

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const named = args.filter((a) => !a.startsWith('--'));
const files = named.length > 0 ? named.map((f) => relative(ROOT, resolve(f))) : defaultFiles();

const failures = [];
const notRun = [];
const warnings = [];
const counts = { shell: 0, ts: 0, tsRun: 0, python: 0, json: 0 };

if (!existsSync(join(ROOT, 'dist', 'main.js'))) {
  console.error('docs-check: dist/main.js is missing; run `npm run build` first');
  process.exit(2);
}

const started = Date.now();
for (const file of files) await checkFile(file);
checkLinks(files);

console.log('');
if (notRun.length > 0) {
  console.log(`docs-check: ${notRun.length} block(s) not run, each marked in its file:`);
  for (const entry of notRun) console.log(`  ${entry.where} [${entry.lang}] ${entry.mode}: ${entry.reason}`);
}
for (const warning of new Set(warnings)) console.log(`docs-check: warning: ${warning}`);
console.log(
  `docs-check: ${files.length} files; ${counts.shell} shell blocks run, ${counts.ts} TypeScript blocks compiled ` +
    `(${counts.tsRun} run), ${counts.python} Python blocks parsed, ${counts.json} JSON blocks parsed; ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
);
if (failures.length > 0) {
  console.log(`docs-check: ${failures.length} failure(s):`);
  for (const failure of failures) console.log(`  ${failure}`);
  process.exit(1);
}
console.log('docs-check: every command in README.md and docs/ runs');

// ---------------------------------------------------------------------------------------------------------------

function defaultFiles() {
  const docs = existsSync(join(ROOT, 'docs'))
    ? readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)
    : [];
  return ['README.md', ...docs];
}

/** Fenced blocks with their language, line and the docs-check marker on the line before, if any. */
function parseBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = lines[i].match(/^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*$/);
    if (!open) continue;
    const fence = open[2];
    const body = [];
    let j = i + 1;
    while (j < lines.length && !lines[j].trim().startsWith(fence)) body.push(lines[j++]);
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === '') k--;
    const marker = k >= 0 ? lines[k].match(/^<!--\s*docs-check:\s*([a-z-]+)(?:\s*\((.*)\))?\s*-->$/) : null;
    blocks.push({
      where: `${file}:${i + 1}`,
      lang: open[3].toLowerCase(),
      code: body.join('\n'),
      mode: marker ? marker[1] : null,
      reason: marker?.[2]?.trim() ?? '',
    });
    i = j;
  }
  return blocks;
}

async function checkFile(file) {
  const path = join(ROOT, file);
  if (!existsSync(path)) {
    failures.push(`${file}: no such file`);
    return;
  }
  const blocks = parseBlocks(file, readFileSync(path, 'utf8'));
  const shell = [];
  const ts = [];
  for (const block of blocks) {
    const known = ['skip', 'syntax-only', 'compile-only', 'http-errors-expected'];
    if (block.mode !== null && !known.includes(block.mode)) {
      failures.push(`${block.where}: unknown marker "docs-check: ${block.mode}" (known: ${known.join(', ')})`);
      continue;
    }
    if (block.mode !== null && block.mode !== 'http-errors-expected' && block.reason === '') {
      failures.push(`${block.where}: "docs-check: ${block.mode}" needs a reason in parentheses`);
      continue;
    }
    if (block.lang === '') {
      failures.push(`${block.where}: a fenced block without a language; label it (bash, ts, python, json, text, …)`);
      continue;
    }
    if (block.mode === 'skip') {
      notRun.push({ ...block, mode: 'skipped' });
      continue;
    }
    if (SHELL_LANGS.has(block.lang)) {
      const code = block.lang === 'console' ? consoleCommands(block.code) : block.code;
      if (UNSAFE.test(code)) {
        failures.push(`${block.where}: runs npm ci/install, git or rm -r, which would act on the repository; mark it skip`);
        continue;
      }
      shell.push({ ...block, code });
    } else if (TS_LANGS.has(block.lang)) {
      ts.push(block);
      if (block.mode === 'compile-only') notRun.push({ ...block, mode: 'compiled, not run' });
    } else if (PY_LANGS.has(block.lang)) {
      checkPython(block);
      if (block.mode !== 'syntax-only') {
        failures.push(`${block.where}: a python block must be marked "docs-check: syntax-only (reason)" or skip`);
      } else {
        notRun.push({ ...block, mode: 'parsed, not run' });
      }
    } else if (block.lang === 'json') {
      try {
        JSON.parse(block.code);
        counts.json++;
      } catch (error) {
        failures.push(`${block.where}: the JSON does not parse: ${error.message}`);
      }
    } else if (!QUIET_LANGS.has(block.lang)) {
      warnings.push(`${block.where}: a ${block.lang} block is not checked`);
    }
  }
  if (shell.length === 0 && ts.length === 0) {
    console.log(`docs-check: ${file}: nothing to run`);
    return;
  }

  const t0 = Date.now();
  const work = mkdtempSync(join(tmpdir(), 'supportdesk-docs-'));
  const env = scrubbedEnv();
  let server = null;
  let model = null;
  try {
    linkRepository(work);
    const adminKey = randomBytes(24).toString('hex');
    server = await startServer(work, adminKey);
    model = await startModelStub();
    const rewrite = (code) =>
      code
        .replaceAll(`localhost:${DOC_PORT}`, `localhost:${server.port}`)
        .replaceAll(`127.0.0.1:${DOC_PORT}`, `127.0.0.1:${server.port}`)
        .replaceAll(MODEL_PLACEHOLDER, model.url);
    Object.assign(env, { ADMIN_API_KEY: adminKey });

    if (shell.length > 0) {
      const ok = await runShell(file, work, env, shell.map((b) => ({ ...b, code: rewrite(b.code) })), server);
      if (ok) counts.shell += shell.length;
    }
    for (const [index, block] of ts.entries()) {
      await runTypeScript(work, env, { ...block, code: rewrite(block.code) }, index, server);
    }
    console.log(`docs-check: ${file}: ${shell.length} shell and ${ts.length} TypeScript blocks (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failures.push(`${file}: ${error.message}`);
    if (server) console.log(tail(server.log()));
  } finally {
    if (model) model.close();
    if (server) await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

function consoleCommands(code) {
  return code
    .split('\n')
    .filter((line) => line.startsWith('$ '))
    .map((line) => line.slice(2))
    .join('\n');
}

function scrubbedEnv() {
  const env = { ...process.env };
  for (const name of SCRUBBED_ENV) delete env[name];
  return env;
}

/** The folder the blocks run in: links to every top-level entry of the repository but .git and data/. */
function linkRepository(work) {
  for (const entry of readdirSync(ROOT)) {
    if (entry === '.git' || entry === 'data') continue;
    symlinkSync(join(ROOT, entry), join(work, entry));
  }
}

async function freePort() {
  const probe = createNetServer();
  await new Promise((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address();
  await new Promise((r) => probe.close(r));
  return port;
}

async function startServer(work, adminKey) {
  const port = await freePort();
  const dataDir = join(work, '.docs-check-server');
  mkdirSync(dataDir);
  let output = '';
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: {
      ...scrubbedEnv(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `file:${join(dataDir, 'supportdesk.db')}`,
      ADMIN_API_KEY: adminKey,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise((r) => child.once('exit', r));
  const server = {
    port,
    log: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
  for (let i = 0; i < 120; i++) {
    if (child.exitCode !== null) throw new Error(`the server exited at start (code ${child.exitCode}):\n${tail(output)}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/health`);
      if (res.ok) return server;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  await server.stop();
  throw new Error(`the server was not healthy after 60 s:\n${tail(output)}`);
}

/**
 * An OpenAI-compatible chat-completions endpoint for `npm run agent`: it opens the first ticket of the inbox that
 * is not resolved, then resolves it as needing no action (two steps an episode), answering as a strict-mode model does (every property
 * of the tool present, null for those the action leaves out).
 */
async function startModelStub() {
  let calls = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        return;
      }
      try {
        const body = JSON.parse(raw);
        const observation = JSON.parse(body.messages.find((m) => m.role === 'user').content);
        const steps = body.messages.filter((m) => m.role === 'tool' && !String(m.content).startsWith('error:')).length;
        const action =
          steps === 0
            ? { type: 'open_ticket', ticket_id: (observation.inbox.find((t) => t.status !== 'resolved') ?? observation.inbox[0]).ticket_id }
            : { type: 'resolve_ticket', resolution: 'no_action_needed' };
        const { type, ...given } = action;
        const tool = (body.tools ?? []).find((t) => t.function?.name === type);
        const properties = Object.keys(tool?.function?.parameters?.properties ?? {});
        const argumentsJson = JSON.stringify({ ...Object.fromEntries(properties.map((p) => [p, null])), ...given });
        calls++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${calls}`,
            object: 'chat.completion',
            model: body.model,
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${calls}`, type: 'function', function: { name: type, arguments: argumentsJson } }] },
                finish_reason: 'tool_calls',
              },
            ],
          }),
        );
      } catch (error) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }));
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, close: () => server.close() };
}

async function runShell(file, work, env, blocks, server) {
  const current = join(work, '.docs-check-current-block');
  const parts = [
    'set -eo pipefail',
    'curl() { command curl --fail-with-body "$@"; }',
  ];
  for (const block of blocks) {
    parts.push(`printf '%s' ${shellQuote(block.where)} > ${shellQuote(current)}`);
    parts.push(`echo ${shellQuote(`\n### ${block.where}`)}`);
    parts.push(block.mode === 'http-errors-expected' ? 'unset -f curl' : 'curl() { command curl --fail-with-body "$@"; }');
    parts.push(block.code);
  }
  parts.push(`printf '%s' done > ${shellQuote(current)}`);
  const script = join(work, '.docs-check-script.sh');
  writeFileSync(script, parts.join('\n') + '\n');
  const result = await run('bash', [script], { cwd: work, env, timeoutMs: FILE_TIMEOUT_MS });
  if (verbose || result.code !== 0) console.log(result.output);
  if (result.code === 0) return true;
  const where = existsSync(current) ? readFileSync(current, 'utf8') : file;
  failures.push(`${where}: exited with ${result.code}${result.timedOut ? ' (timed out)' : ''}`);
  console.log(`--- server log (last lines) ---\n${tail(server.log())}`);
  return false;
}

async function runTypeScript(work, env, block, index, server) {
  const name = `docs-snippet-${index + 1}`;
  writeFileSync(join(work, `${name}.ts`), block.code + '\n');
  const outDir = join(work, '.docs-check-ts');
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const compiled = await run(
    process.execPath,
    [
      tsc, '--strict', '--target', 'ES2022', '--module', 'node16', '--moduleResolution', 'node16',
      '--esModuleInterop', '--skipLibCheck', '--types', 'node', '--preserveSymlinks',
      '--rootDir', work, '--outDir', outDir, join(work, `${name}.ts`),
    ],
    { cwd: work, env, timeoutMs: 120_000 },
  );
  if (compiled.code !== 0) {
    console.log(compiled.output);
    failures.push(`${block.where}: does not compile`);
    return;
  }
  counts.ts++;
  if (block.mode === 'compile-only') return;
  const ran = await run(process.execPath, [join(outDir, `${name}.js`)], { cwd: work, env, timeoutMs: SNIPPET_TIMEOUT_MS });
  if (verbose || ran.code !== 0) console.log(`### ${block.where}\n${ran.output}`);
  if (ran.code !== 0) {
    failures.push(`${block.where}: exited with ${ran.code}${ran.timedOut ? ' (timed out)' : ''}`);
    console.log(`--- server log (last lines) ---\n${tail(server.log())}`);
    return;
  }
  counts.tsRun++;
}

function checkPython(block) {
  const result = spawnSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: block.code, encoding: 'utf8' });
  if (result.error) {
    failures.push(`${block.where}: python3 is needed to parse Python blocks (${result.error.message})`);
  } else if (result.status !== 0) {
    failures.push(`${block.where}: the Python does not parse:\n${result.stderr.trim()}`);
  } else {
    counts.python++;
  }
}

function run(command, argv, { cwd, env, timeoutMs }) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? (signal ? 128 : 1), output, timedOut });
    });
  });
}

function shellQuote(text) {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function tail(text, lines = 40) {
  return text.split('\n').slice(-lines).join('\n');
}

// --- links ------------------------------------------------------------------------------------------------------

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(text) {
  const anchors = new Set();
  const seen = new Map();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) inFence = !inFence;
    if (inFence) continue;
    const heading = line.match(/^#{1,6}\s+(.*?)\s*#*\s*$/);
    if (!heading) continue;
    const base = heading[1]
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function checkLinks(checked) {
  for (const file of checked) {
    const path = join(ROOT, file);
    if (!existsSync(path)) continue;
    const text = readFileSync(path, 'utf8');
    const prose = text.replace(/^\s*(`{3,}|~{3,})[\s\S]*?^\s*\1\s*$/gm, '').replace(/`[^`\n]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
      const [pathPart, anchor] = target.split('#');
      const targetFile = pathPart === '' ? path : resolve(dirname(path), pathPart);
      const shown = relative(ROOT, targetFile);
      if (!existsSync(targetFile)) {
        warnings.push(`${file}: links to ${shown}, which does not exist (yet)`);
        continue;
      }
      if (anchor && targetFile.endsWith('.md') && !anchorsOf(readFileSync(targetFile, 'utf8')).has(anchor)) {
        failures.push(`${file}: links to ${shown}#${anchor}, which has no such heading`);
      }
    }
  }
}
