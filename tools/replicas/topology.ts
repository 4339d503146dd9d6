import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT, spawnServer, stopServer, waitHealthy } from '../bench/server-process';

/*
 * The scale profile's topology (docker-compose.yml, docs/replicas.md) without Docker: N built servers
 * (dist/main.js) on one PostgreSQL database, behind HAProxy from Debian's package running deploy/haproxy.cfg, the
 * same file the compose profile mounts. What `npm run test:replicas` and `npm run bench:replicas` run against.
 */

export interface Replica {
  name: string;
  base: string;
  port: number;
  process: ChildProcess;
}

export interface Topology {
  /** The load balancer's address: what clients use. */
  base: string;
  replicas: Replica[];
  /** Starts (again) the replica of that index, healthy, on its port: this checkout's build, or `root`'s. */
  restart(index: number, env?: Record<string, string>, root?: string): Promise<Replica>;
  /** Waits until the load balancer has `count` replicas up. */
  waitUp(count: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

export const HAPROXY_CONFIG = join(ROOT, 'deploy', 'haproxy.cfg');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Starts `count` replicas one after another (the first migrates the database; the others find nothing to do),
 * then HAProxy in front of them; resolves once the load balancer sees them all up. `env` goes to every replica
 * (DATABASE_URL, CHAIN_KEY, ADMIN_API_KEY…); TRUSTED_PROXIES is set to loopback, where HAProxy connects from.
 */
export async function startTopology(count: number, env: Record<string, string>, roots: string[] = []): Promise<Topology> {
  const replicas: Replica[] = [];
  // Each replica writes its ledger checkpoints to a file of its own (as each has its own volume in the compose
  // profile): one file is one witness's record, in the order it wrote them.
  const settings = (index: number, port: number, extra: Record<string, string> = {}) => ({
    TRUSTED_PROXIES: '127.0.0.1',
    ...env,
    ...(env.LEDGER_CHECKPOINT_FILE ? { LEDGER_CHECKPOINT_FILE: `${env.LEDGER_CHECKPOINT_FILE}.replica-${index + 1}` } : {}),
    PORT: String(port),
    ...extra,
  });
  const launch = async (index: number, port: number, extra: Record<string, string> | undefined, root: string): Promise<Replica> => {
    const server = spawnServer(settings(index, port, extra), 'ignore', root);
    const replica = { name: `replica-${index + 1}`, base: `http://127.0.0.1:${port}`, port, process: server };
    await waitHealthy(replica.base, 60_000);
    return replica;
  };
  let haproxy: ChildProcess | null = null;
  try {
    for (let i = 0; i < count; i++) replicas.push(await launch(i, await freePort(), undefined, roots[i] ?? ROOT));
    const port = await freePort();
    const addresses = Object.fromEntries(replicas.map((r, i) => [`REPLICA_${i + 1}`, `127.0.0.1:${r.port}`]));
    haproxy = spawn('haproxy', ['-db', '-f', HAPROXY_CONFIG], {
      env: { ...process.env, LISTEN: `127.0.0.1:${port}`, ...addresses },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const balancer = haproxy;
    const base = `http://127.0.0.1:${port}`;
    const topology: Topology = {
      base,
      replicas,
      async restart(index, extra, root) {
        await stopServer(replicas[index].process);
        replicas[index] = await launch(index, replicas[index].port, extra, root ?? ROOT);
        return replicas[index];
      },
      async waitUp(up, timeoutMs = 15_000) {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const seen = new Set<string>();
          for (let i = 0; i < 4 * count; i++) {
            const answer = await fetch(`${base}/health`).catch(() => null);
            const name = answer?.ok ? answer.headers.get('x-supportdesk-replica') : null;
            if (name) seen.add(name);
          }
          if (seen.size >= up) return;
          if (Date.now() > deadline) throw new Error(`the load balancer did not see ${up} replica(s) up within ${timeoutMs} ms (saw ${[...seen].join(', ') || 'none'})`);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      },
      async stop() {
        balancer.kill('SIGTERM');
        await Promise.all(replicas.map((replica) => stopServer(replica.process)));
      },
    };
    await topology.waitUp(count);
    return topology;
  } catch (error) {
    haproxy?.kill('SIGKILL');
    for (const replica of replicas) replica.process.kill('SIGKILL');
    throw error;
  }
}
