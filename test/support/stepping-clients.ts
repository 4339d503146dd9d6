import request from 'supertest';
import { SOLUTIONS } from '../fixtures/solutions';
import { asAdmin, bearer } from './tenants';
import type { startTestApp } from './test-app';

/*
 * What the backup tests on both databases run while a backup is taken: clients stepping episodes, each step
 * recorded once acknowledged, and the tenant ledgers' reports to check afterwards.
 */

type App = Awaited<ReturnType<typeof startTestApp>>;

const billing = SOLUTIONS.billing_duplicate_charge.actions;

/** A step the server acknowledged: its episode, its index, and the agent key it was taken with (null: open mode). */
export interface Ack {
  episodeId: string;
  step: number;
  key: string | null;
}

/** A client that resets and steps billing episodes to the end, again and again, until told to stop; `acks` in order. */
export async function steppingClient(app: App, key: string | null, acks: Ack[], stopped: () => boolean): Promise<void> {
  const auth = key ? bearer(key) : {};
  while (!stopped()) {
    const reset = await request(app.http).post('/reset').set(auth).send({ variant: 'canonical', task_id: 'billing_duplicate_charge' }).expect(200);
    const episodeId = reset.body.episode_id as string;
    for (const [i, action] of billing.entries()) {
      if (stopped()) return;
      await request(app.http).post('/step').set(auth).send({ episode_id: episodeId, action }).expect(200);
      acks.push({ episodeId, step: i + 1, key });
    }
  }
}

/** Resolves once `condition` holds (checked every 5 ms). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

/** Every tenant ledger's report, as GET /ledger/verify gives it to the admin. */
export async function ledgerReports(app: App) {
  return (await request(app.http).get('/ledger/verify').set(asAdmin).expect(200)).body.tenants as {
    tenant: string;
    entries: number;
    ledger_ok: boolean;
    checkpoint: { seq: number } | null;
    checkpoint_ok: boolean;
    problems: string[];
  }[];
}
