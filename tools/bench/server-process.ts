import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/common/project-root';

export const ROOT = PROJECT_ROOT;

/** A compiled tool script (`npm run build:tools` writes them to build/). */
export const toolScript = (...path: string[]) => join(ROOT, 'build', 'tools', ...path);

/**
 * The built server (dist/main.js) as its own process, as production runs it, with these settings on top; `root`
 * is the checkout whose build it runs (another release's, for the rolling-upgrade test).
 */
export function spawnServer(env: Record<string, string>, stdout: 'ignore' | 'pipe' = 'ignore', root = ROOT): ChildProcess {
  return spawn(process.execPath, [join(root, 'dist', 'main.js')], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', stdout, 'inherit'],
  });
}

/** Polls /health until it answers 200; throws after `timeoutMs`. */
export async function waitHealthy(base: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`${base} did not become healthy within ${timeoutMs} ms`);
}

/** SIGTERM, then wait for the process to exit. */
export async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
}
