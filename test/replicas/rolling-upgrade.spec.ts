import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startTopology, type Topology } from '../../tools/replicas/topology';
import { buildRelease, UPGRADE_FROM } from '../../tools/replicas/previous-release';
import { waitHealthy } from '../../tools/bench/server-process';
import { scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';
import { ADMIN_KEY, CHAIN_KEY } from '../support/tenants';
import { asAdmin, call, tenantWithKey } from './support';

/*
 * A rolling upgrade (docs/replicas.md): replicas of the previous release serve the database; a replica of this one
 * starts beside them, migrates the database, and both releases serve it through the load balancer while the old
 * replicas are replaced one by one. Nothing is refused and nothing is corrupted: the episodes begun before, during
 * and after step on through either release, and every chain and ledger verifies at the end.
 */

let db: ScratchDatabase;
let previous: { root: string; remove: () => void };
let topology: Topology | null = null;
const CHECKPOINTS = `/tmp/rolling-upgrade-${process.pid}.ledger-checkpoints`;
const env = () => ({
  DATABASE_URL: db.url,
  ADMIN_API_KEY: ADMIN_KEY,
  CHAIN_KEY,
  REQUIRE_API_KEY: 'true',
  RATE_LIMIT_PER_MINUTE: '0',
  MAX_ACTIVE_EPISODES_PER_TENANT: '0',
  LEDGER_CHECKPOINT_FILE: CHECKPOINTS,
});

beforeAll(async () => {
  previous = buildRelease(UPGRADE_FROM);
  db = await scratchDatabase('rolling-upgrade');
}, 600_000);
afterAll(async () => {
  await topology?.stop();
  await db?.drop();
  previous?.remove();
  for (const replica of ['replica-1', 'replica-2']) rmSync(`${CHECKPOINTS}.${replica}`, { force: true });
});

const search = { type: 'search_policy', query: 'refund duplicate charge' };
const migrations = () => withClient(db.url, async (client) => (await client.query<{ name: string }>('SELECT migration_name AS name FROM _prisma_migrations ORDER BY migration_name')).rows.map((r) => r.name));

it('the previous release and this one serve one database side by side, then this one alone: nothing refused, every chain verifies', async () => {
  // Two replicas of the previous release: the first migrates the empty database to its schema.
  topology = await startTopology(2, env(), [previous.root, previous.root]);
  const before = await migrations();
  const { key } = await tenantWithKey(topology.base, 'upgrading');
  const reset = async () => (await call(topology!.base, 'POST', '/reset', { key, body: { variant: 'canonical', task_id: 'billing_duplicate_charge' } })).body.episode_id as string;
  const episodes = [await reset(), await reset(), await reset()];
  const stepAll = async (label: string) => {
    const answers = await Promise.all(episodes.flatMap((id) => [1, 2].map(() => call(topology!.base, 'POST', '/step', { key, body: { episode_id: id, action: search } }))));
    expect([label, answers.map((a) => a.status)]).toEqual([label, answers.map(() => 200)]);
    return new Set(answers.map((a) => a.replica));
  };
  await stepAll('previous release only');

  // This release replaces the second replica: it migrates the database, which the first (old) replica goes on serving.
  await topology.restart(1);
  await topology.waitUp(2);
  const after = await migrations();
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after.length).toBeGreaterThan(before.length);
  episodes.push(await reset(), await reset());
  expect(await stepAll('both releases')).toEqual(new Set(['replica-1', 'replica-2']));
  const health = await Promise.all(topology.replicas.map((r) => call(r.base, 'GET', '/health')));
  expect(health.map((h) => h.status)).toEqual([200, 200]);

  // A replica of the previous release started now refuses the newer database, saying why (it is not half-served).
  const late = spawn(process.execPath, [join(previous.root, 'dist', 'main.js')], {
    cwd: previous.root,
    env: { ...process.env, ...env(), HOST: '127.0.0.1', PORT: String(await freePort()), LEDGER_CHECKPOINT_FILE: `${CHECKPOINTS}.late` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let said = '';
  late.stdout!.on('data', (chunk) => (said += chunk));
  late.stderr!.on('data', (chunk) => (said += chunk));
  const exit = await new Promise<number | null>((resolve) => late.once('exit', (code) => resolve(code)));
  rmSync(`${CHECKPOINTS}.late`, { force: true });
  expect([exit, said]).toEqual([1, expect.stringMatching(/migrated by a newer release/)]);

  // The last old replica is replaced: this release alone.
  await topology.restart(0);
  await topology.waitUp(2);
  episodes.push(await reset());
  await stepAll('this release only');

  for (const id of episodes) {
    const report = await call(topology.base, 'GET', `/episodes/${id}/verify?tenant=upgrading`, asAdmin);
    expect([id, report.body.chain_ok, report.body.replay_ok, report.body.ledger_ok]).toEqual([id, true, true, true]);
  }
  const ledgers = await call(topology.base, 'GET', '/ledger/verify', asAdmin);
  for (const tenant of ledgers.body.tenants) expect([tenant.tenant, tenant.ledger_ok, tenant.problems]).toEqual([tenant.tenant, true, []]);
  await waitHealthy(topology.base);
});
