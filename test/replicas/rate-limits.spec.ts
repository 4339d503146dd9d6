import { rmSync } from 'node:fs';
import type { Topology } from '../../tools/replicas/topology';
import type { ScratchDatabase } from '../support/postgres';
import { call, replicasOnFreshDatabase, tenantWithKey, type Answer } from './support';

/*
 * The rate limits of two replicas behind the load balancer are one limit: the buckets are rows of the shared
 * database (src/replicas/postgres-rate-limits.ts), so a tenant, an address or a failing client gets the limit once,
 * not once per replica.
 */

const PER_MINUTE = 60;
const FAILURES_PER_MINUTE = 10;
let topology: Topology;
let db: ScratchDatabase;
const CHECKPOINTS = `/tmp/replica-limits-${process.pid}.ledger-checkpoints`;

beforeAll(async () => {
  ({ topology, db } = await replicasOnFreshDatabase('replica-limits', 2, {
    LEDGER_CHECKPOINT_FILE: CHECKPOINTS,
    RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
    AUTH_FAILURES_PER_MINUTE: String(FAILURES_PER_MINUTE),
  }));
});
afterAll(async () => {
  await topology?.stop();
  await db?.drop();
  for (const replica of ['replica-1', 'replica-2']) rmSync(`${CHECKPOINTS}.${replica}`, { force: true });
});

/** `count` requests, four at a time; the answers, and the seconds they took (a bucket refills as time passes). */
async function burst(count: number, send: () => Promise<Answer>): Promise<{ answers: Answer[]; seconds: number }> {
  const started = Date.now();
  const answers: Answer[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (sent < count) {
        sent++;
        answers.push(await send());
      }
    }),
  );
  return { answers, seconds: (Date.now() - started) / 1000 };
}

const statuses = (answers: Answer[]) => answers.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});

it("a tenant's rate limit holds across the replicas: a minute's worth in all, whichever replica counts it", async () => {
  const { key } = await tenantWithKey(topology.base, 'limited');
  const episode = (await call(topology.base, 'POST', '/reset', { key, body: { variant: 'canonical' } })).body.episode_id;
  const { answers, seconds } = await burst(2 * PER_MINUTE + 20, () => call(topology.base, 'GET', `/state/${episode}`, { key }));
  const served = answers.filter((a) => a.status === 200);
  // The reset took a token; the bucket refills at PER_MINUTE a minute while the burst runs.
  expect(served.length).toBeGreaterThanOrEqual(PER_MINUTE - 1);
  expect(served.length).toBeLessThanOrEqual(PER_MINUTE - 1 + Math.ceil((seconds * PER_MINUTE) / 60));
  expect(statuses(answers)).toEqual({ 200: served.length, 429: answers.length - served.length });
  expect(new Set(served.map((a) => a.replica))).toEqual(new Set(['replica-1', 'replica-2']));
  const refused = answers.find((a) => a.status === 429)!;
  expect(refused.body.message).toMatch(/rate limit of 60 requests a minute/);
});

it('failed authentications from one address are limited across the replicas; a valid key from it is not', async () => {
  const { key } = await tenantWithKey(topology.base, 'failing');
  const { answers, seconds } = await burst(3 * FAILURES_PER_MINUTE, () => call(topology.base, 'POST', '/reset', { key: 'sdk_not_a_key', body: { variant: 'canonical' } }));
  const refusedAsWrong = answers.filter((a) => a.status === 401);
  expect(refusedAsWrong.length).toBeGreaterThanOrEqual(FAILURES_PER_MINUTE);
  expect(refusedAsWrong.length).toBeLessThanOrEqual(FAILURES_PER_MINUTE + Math.ceil((seconds * FAILURES_PER_MINUTE) / 60));
  expect(statuses(answers)).toEqual({ 401: refusedAsWrong.length, 429: answers.length - refusedAsWrong.length });
  expect(new Set(answers.map((a) => a.replica))).toEqual(new Set(['replica-1', 'replica-2']));
  // Both replicas refuse the failing key now, and both still serve the valid one from the same address.
  for (const replica of topology.replicas) {
    expect((await call(replica.base, 'POST', '/reset', { key: 'sdk_still_wrong', body: { variant: 'canonical' } })).status).toBe(429);
    expect((await call(replica.base, 'POST', '/reset', { key, body: { variant: 'canonical' } })).status).toBe(200);
  }
});
