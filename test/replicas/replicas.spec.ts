import { rmSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Topology } from '../../tools/replicas/topology';
import type { ScratchDatabase } from '../support/postgres';
import { openWsClient } from '../support/ws-client';
import { SOLUTIONS } from '../fixtures/solutions';
import { asAdmin, call, replicasOnFreshDatabase, tenantWithKey, type Answer } from './support';

/*
 * Two replicas (built servers) on one PostgreSQL database behind HAProxy running deploy/haproxy.cfg: the scale
 * profile's topology (docs/replicas.md). Requests through the load balancer alternate between the replicas
 * (round-robin; each answer says which replica gave it), so everything here crosses from one to the other.
 */

let topology: Topology;
let db: ScratchDatabase;
const CHECKPOINTS = `/tmp/replicas-${process.pid}.ledger-checkpoints`;

beforeAll(async () => {
  ({ topology, db } = await replicasOnFreshDatabase('replicas', 2, { LEDGER_CHECKPOINT_FILE: CHECKPOINTS }));
});
afterAll(async () => {
  await topology?.stop();
  await db?.drop();
  for (const replica of ['replica-1', 'replica-2']) rmSync(`${CHECKPOINTS}.${replica}`, { force: true });
});

const search = { type: 'search_policy', query: 'refund duplicate charge' };
const billing = SOLUTIONS.billing_duplicate_charge.actions;

async function resetThrough(base: string, key: string): Promise<string> {
  const reset = await call(base, 'POST', '/reset', { key, body: { variant: 'canonical', task_id: 'billing_duplicate_charge' } });
  expect(reset.status).toBe(200);
  return reset.body.episode_id;
}

/** What the admin reads of a tenant's episode (audit routes: readers and the admin). */
const audit = (tenant: string, id: string, what: 'actions' | 'verify') => call(topology.base, 'GET', `/episodes/${id}/${what}?tenant=${tenant}`, asAdmin);

async function verifiesWhole(tenant: string, episodeIds: string[]): Promise<void> {
  for (const id of episodeIds) {
    const report = await audit(tenant, id, 'verify');
    expect([id, report.status, report.body.chain_ok, report.body.replay_ok, report.body.ledger_ok]).toEqual([id, 200, true, true, true]);
  }
  const ledgers = await call(topology.base, 'GET', '/ledger/verify', asAdmin);
  for (const tenant of ledgers.body.tenants) expect([tenant.tenant, tenant.ledger_ok, tenant.problems]).toEqual([tenant.tenant, true, []]);
}

it('one replica leads the periodic jobs; /health says which', async () => {
  const health = await Promise.all(topology.replicas.map((replica) => call(replica.base, 'GET', '/health')));
  expect(health.map((h) => h.status)).toEqual([200, 200]);
  expect(health.map((h) => h.body.replica.leader).sort()).toEqual([false, true]);
  expect(new Set(health.map((h) => h.body.replica.id)).size).toBe(2);
});

it('concurrent steps on the same episodes through both replicas: no update lost, each step index acknowledged once, every chain verifies', async () => {
  const { key } = await tenantWithKey(topology.base, 'concurrent');
  const episodes = await Promise.all(Array.from({ length: 8 }, () => resetThrough(topology.base, key)));
  const acknowledged = new Map<string, number[]>(episodes.map((id) => [id, []]));
  let throughBalancer = 0;
  let next = 0;
  // 16 clients, 80 steps (10 an episode, under its 12-step limit), each on the episode its turn gives: every
  // episode is stepped by two clients at once. The balancer keeps an episode's steps on one replica (its
  // episode_id is hashed), so the steps go in turn through it and straight to each replica: every episode is
  // stepped through both replicas at once.
  const targets = [topology.base, ...topology.replicas.map((replica) => replica.base)];
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < 80) {
        const turn = next++;
        const id = episodes[turn % episodes.length];
        const step = await call(targets[Math.floor(turn / episodes.length) % targets.length], 'POST', '/step', { key, body: { episode_id: id, action: search } });
        expect(step.status).toBe(200);
        acknowledged.get(id)!.push(step.body.info.step_count);
        if (step.replica) throughBalancer++;
      }
    }),
  );
  // A third of them went through the balancer (which answered naming its replica), the rest straight to each replica.
  expect(throughBalancer).toBeGreaterThanOrEqual(16);
  for (const [id, counts] of acknowledged) {
    // Every acknowledged step has its own index, and together they are 1..n: nothing lost, nothing applied twice.
    expect([id, [...counts].sort((a, b) => a - b)]).toEqual([id, counts.map((_, i) => i + 1)]);
    const log = await audit('concurrent', id, 'actions');
    expect(log.body.actions).toHaveLength(counts.length);
  }
  await verifiesWhole('concurrent', episodes);
});

it("the balancer keeps an episode's steps on one replica and spreads the rest", async () => {
  const { key } = await tenantWithKey(topology.base, 'affinity');
  // Sixteen episodes: that consistent hashing puts them all on one replica has odds of 2 in 65,536.
  const resets = await Promise.all(Array.from({ length: 16 }, () => call(topology.base, 'POST', '/reset', { key, body: { variant: 'canonical', task_id: 'billing_duplicate_charge' } })));
  expect(new Set(resets.map((r) => r.replica))).toEqual(new Set(['replica-1', 'replica-2']));
  const stepped = new Set<string>();
  for (const reset of resets) {
    const steps = [];
    for (let i = 0; i < 3; i++) steps.push(await call(topology.base, 'POST', '/step', { key, body: { episode_id: reset.body.episode_id, action: search } }));
    expect(steps.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(new Set(steps.map((s) => s.replica)).size).toBe(1);
    stepped.add(steps[0].replica!);
  }
  expect(stepped).toEqual(new Set(['replica-1', 'replica-2']));
});

it('a run filled through both replicas at once has every cell exactly once', async () => {
  const { key } = await tenantWithKey(topology.base, 'run-filling');
  const run = await call(topology.base, 'POST', '/runs', { key, body: { name: 'through-replicas', agent: 'scripted/1', families: ['billing_duplicate_charge'], seed_count: 4, trials: 3 } });
  expect(run.status).toBe(201);
  const filled: Array<{ cell: string; episode: string }> = [];
  const refusals: number[] = [];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (;;) {
        const reset = await call(topology.base, 'POST', '/reset', { key, body: { run_id: run.body.run_id } });
        if (reset.status !== 200) {
          refusals.push(reset.status);
          expect(reset.body.message).toMatch(/no cell left/);
          return;
        }
        const { task_id, seed, trial } = reset.body.info.run;
        filled.push({ cell: `${task_id}/${seed}/${trial}`, episode: reset.body.episode_id });
        const inbox = reset.body.observation.inbox as Array<{ ticket_id: string }>;
        for (const action of [{ type: 'open_ticket', ticket_id: inbox[0].ticket_id }, { type: 'resolve_ticket', resolution: 'no_action_needed' }]) {
          expect((await call(topology.base, 'POST', '/step', { key, body: { episode_id: reset.body.episode_id, action } })).status).toBe(200);
        }
      }
    }),
  );
  expect(filled).toHaveLength(12);
  expect(new Set(filled.map((f) => f.cell)).size).toBe(12);
  expect(refusals).toEqual(Array(8).fill(409));
  const cells = await call(topology.base, 'GET', `/runs/${run.body.run_id}/cells?limit=50`, { key });
  expect(cells.body.cells.map((c: any) => c.status)).toEqual(Array(12).fill('finished'));
  expect(new Set(cells.body.cells.map((c: any) => c.episode_id))).toEqual(new Set(filled.map((f) => f.episode)));
});

it('MCP and OpenEnv sessions are served by whichever replica a request reaches', async () => {
  const { key } = await tenantWithKey(topology.base, 'sessions');
  const episodeId = await resetThrough(topology.base, key);
  const replicas: string[] = [];
  const transport = new StreamableHTTPClientTransport(new URL(`${topology.base}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      replicas.push(response.headers.get('x-supportdesk-replica') ?? 'none');
      return response;
    },
  });
  const client = new Client({ name: 'replica-test', version: '1.0.0' });
  await client.connect(transport);
  for (const action of billing.slice(0, 3)) {
    const { type, ...args } = action as { type: string };
    const result = await client.callTool({ name: type, arguments: { episode_id: episodeId, ...args } });
    expect(result.isError).toBeFalsy();
  }
  expect(new Set(replicas)).toEqual(new Set(['replica-1', 'replica-2']));
  await transport.terminateSession();
  await client.close();

  const created = await call(topology.base, 'POST', '/mcp', { key, body: { jsonrpc: '2.0', id: 1, method: 'openenv/session/create', params: { variant: 'canonical' } } });
  const sessionId = created.body.result.session_id;
  const answers = await Promise.all(
    [1, 2, 3, 4].map((id) => call(topology.base, 'POST', '/mcp', { key, body: { jsonrpc: '2.0', id, method: 'tools/call', params: { session_id: sessionId, name: 'view_inbox', arguments: {} } } })),
  );
  expect(answers.map((a) => a.body.error)).toEqual([undefined, undefined, undefined, undefined]);
  expect(new Set(answers.map((a) => a.replica))).toEqual(new Set(['replica-1', 'replica-2']));
});

it('a key revoked on one replica is cut off on the other at once: its remembered lookup, its open /ws session', async () => {
  const { key, keyId } = await tenantWithKey(topology.base, 'revoked');
  const [first, second] = topology.replicas;
  const episodeId = await resetThrough(topology.base, key);
  // Each replica has looked the key up (and would reuse the answer for 2 s); the second holds a /ws session of it.
  for (const replica of [first, second]) expect((await call(replica.base, 'GET', `/state/${episodeId}`, { key })).status).toBe(200);
  const session = await openWsClient(`${second.base.replace('http', 'ws')}/ws`, { authorization: `Bearer ${key}` });
  expect((await session.ask({ type: 'reset', data: { variant: 'canonical' } })).type).toBe('observation');
  const closed = new Promise<number>((resolve) => session.ws.once('close', (code) => resolve(code)));

  const revokedAt = Date.now();
  expect((await call(first.base, 'DELETE', `/admin/tenants/revoked/keys/${keyId}`, asAdmin)).status).toBe(200);
  // The other replica's session ends with no message sent on it: it was told (NOTIFY), not asked on its next use.
  expect(await closed).toBe(1008);
  let status = 200;
  while (status === 200 && Date.now() - revokedAt < 2_000) status = (await call(second.base, 'GET', `/state/${episodeId}`, { key })).status;
  expect(status).toBe(401);
  expect((await call(first.base, 'GET', `/state/${episodeId}`, { key })).status).toBe(401);
  // Well within the 2 s the other replica would otherwise have gone on trusting its remembered lookup.
  expect(Date.now() - revokedAt).toBeLessThan(1_000);
});

it('one replica SIGKILLed under load: no acknowledged step is lost, the other keeps serving and leads', async () => {
  const { key } = await tenantWithKey(topology.base, 'killed');
  const leaderIndex = (await Promise.all(topology.replicas.map((r) => call(r.base, 'GET', '/health')))).findIndex((h) => h.body.replica.leader);
  const survivor = topology.replicas[1 - leaderIndex];
  const episodes: string[] = [];
  const acknowledged: Array<{ id: string; step: number; reward: number; replica: string }> = [];
  let killedAt = Infinity;
  let stop = false;

  /**
   * Sends a request until a replica answers it: one whose answer was lost (its replica killed mid-request) is sent
   * again as it was. A reset names its episode and a step carries a request_id, so neither is applied twice.
   */
  async function untilAnswered(path: string, body: object, done: (status: number) => boolean): Promise<Answer> {
    for (let attempt = 0; ; attempt++) {
      const answer = await call(topology.base, 'POST', path, { key, body }).catch(() => null);
      if (answer && done(answer.status)) return answer;
      if (attempt === 100) throw new Error(`${path} was not answered: ${answer?.status} ${JSON.stringify(answer?.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  await Promise.all([
    ...Array.from({ length: 8 }, async (_, worker) => {
      for (let round = 0; !stop; round++) {
        const id = `killed-${worker}-${round}`;
        // 409: its first sending was applied and only the answer was lost.
        await untilAnswered('/reset', { variant: 'canonical', task_id: 'billing_duplicate_charge', episode_id: id }, (status) => status === 200 || status === 409);
        episodes.push(id);
        for (let step = 1; step <= 10 && !stop; step++) {
          const answer = await untilAnswered('/step', { episode_id: id, action: search, request_id: `${id}-${step}` }, (status) => status === 200);
          acknowledged.push({ id, step: answer.body.info.step_count, reward: answer.body.reward, replica: answer.replica! });
        }
      }
    }),
    (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      killedAt = acknowledged.length;
      topology.replicas[leaderIndex].process.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      stop = true;
    })(),
  ]);
  const afterKill = acknowledged.slice(killedAt);
  expect(afterKill.length).toBeGreaterThan(20);
  expect(afterKill.slice(-10).every((a) => a.replica === survivor.name)).toBe(true);
  for (const id of episodes) {
    const log = (await audit('killed', id, 'actions')).body.actions as Array<{ step: number; reward: number }>;
    const acks = acknowledged.filter((a) => a.id === id);
    // Every acknowledged step is there, once, with the reward its client was given; a step sent but never
    // acknowledged may be there too (applied, its answer lost): only after the acknowledged ones.
    expect(acks.map((a) => a.step)).toEqual(acks.map((_, i) => i + 1));
    expect(log.length - acks.length).toBeLessThanOrEqual(1);
    for (const ack of acks) expect([ack.step, log[ack.step - 1]?.reward]).toEqual([ack.step, ack.reward]);
  }
  await verifiesWhole('killed', episodes);
  // The lock went with the killed replica's connection: the survivor leads within the retry interval.
  const deadline = Date.now() + 8_000;
  while (!(await call(survivor.base, 'GET', '/health')).body.replica.leader) {
    expect(Date.now()).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await topology.restart(leaderIndex);
  await topology.waitUp(2);
});
