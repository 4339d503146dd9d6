import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import request from 'supertest';
import { ManualClock } from '../src/common/clock';
import { EpisodeExpiryService } from '../src/episodes/episode-expiry.service';
import { LedgerCheckpoints } from '../src/episodes/ledger/ledger-checkpoints';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from './support/tenants';
import { checkpointFileOf, freshDatabaseUrl, startTestApp } from './support/test-app';
import { withDirect, type DirectDatabase } from './support/direct-database';

/*
 * The tenant ledger against someone who can write the database file but not read CHAIN_KEY: each forgery of the
 * red team's report (a rewind of a failed episode, a deleted episode, a cut ledger, a changed feedback mode), done
 * with the file, and caught by verify; honest activity (steps, expiry, enrolment of older episodes) verifies.
 */

const billing = SOLUTIONS.billing_duplicate_charge.actions;
const env = { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY };

type App = Awaited<ReturnType<typeof startTestApp>>;

const dropTriggers = async (db: DirectDatabase) => {
  for (const table of ['action_log', 'ledger_entries']) {
    for (const change of ['update', 'delete']) await db.dropTrigger(`${table}_no_${change}`, table);
  }
  await db.dropTrigger('episodes_ledger_entry_no_update', 'episodes');
};

const verify = async (app: App, id: string) => (await request(app.http).get(`/episodes/${id}/verify`).set(asAdmin).expect(200)).body;
const ledgerOf = async (app: App, slug: string) => (await request(app.http).get(`/ledger/verify?tenant=${slug}`).set(asAdmin).expect(200)).body.tenants[0];

async function play(app: App, key: string, actions: object[], body: object = { variant: 'canonical' }): Promise<string> {
  const id = (await request(app.http).post('/reset').set(bearer(key)).send(body).expect(200)).body.episode_id;
  for (const action of actions) await request(app.http).post('/step').set(bearer(key)).send({ episode_id: id, action }).expect(200);
  return id;
}

describe('honest activity', () => {
  it('steps, an idle expiry and two tenants all verify, episode by episode and ledger by ledger; a reader sees its own', async () => {
    const clock = new ManualClock('2026-11-30T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const a = await tenantWithKey(app.http, 'ledger-a');
      const b = await tenantWithKey(app.http, 'ledger-b');
      const solved = await play(app, a.key, billing);
      const idle = await play(app, a.key, billing.slice(0, 2));
      await play(app, b.key, billing.slice(0, 1));
      clock.advance(25 * 3_600_000);
      expect(await app.app.get(EpisodeExpiryService).sweep()).toBe(2);
      for (const id of [solved, idle]) expect(await verify(app, id)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
      const reports = (await request(app.http).get('/ledger/verify').set(asAdmin).expect(200)).body.tenants;
      for (const report of reports) expect([report.tenant, report.ledger_ok, report.problems]).toEqual([report.tenant, true, []]);
      // 2 creations, 6 + 2 steps and 1 expiry in tenant a (the other expiry is tenant b's).
      expect(reports.find((r: { tenant: string }) => r.tenant === 'ledger-a')).toMatchObject({ entries: 11, episodes: 2, checkpoint_ok: true });
      const own = (await request(app.http).get('/ledger/verify').set(bearer(b.readerKey)).expect(200)).body.tenants;
      expect(own.map((r: { tenant: string }) => r.tenant)).toEqual(['ledger-b']);
      await request(app.http).get('/ledger/verify?tenant=ledger-a').set(bearer(b.readerKey)).expect(403);
      await request(app.http).get('/ledger/verify').set(bearer(b.key)).expect(403);
    } finally {
      await app.app.close();
    }
  });
});

describe('forgeries with the database file', () => {
  let url: string;
  let app: App;
  let key: string;
  beforeEach(async () => {
    url = freshDatabaseUrl();
    app = await startTestApp(url, env);
    key = (await tenantWithKey(app.http, 'lab')).key;
  });
  afterEach(() => app.app.close());

  /** The file changed behind the server's back, then the server started again (so nothing cached survives). */
  async function behindItsBack(work: (db: DirectDatabase) => Promise<unknown>): Promise<void> {
    await app.app.close();
    await withDirect(url, work);
    app = await startTestApp(url, env);
  }

  /** A failed final-mode attempt, then `between` (other activity), then the episode restored from a copy taken after its reset. */
  async function rewound(between: () => Promise<void>): Promise<string> {
    const id = (await request(app.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', feedback: 'final' }).expect(200)).body.episode_id;
    // The copy: the episode's row as it stood, kept in a table of its own.
    const copy = `episode_copy_${id.slice(0, 8)}`;
    await withDirect(url, (db) => db.exec(`CREATE TABLE ${copy} AS SELECT * FROM episodes WHERE id = '${id}'`));
    await request(app.http).post('/step').set(bearer(key)).send({ episode_id: id, action: billing[0] }).expect(200);
    await request(app.http).post('/step').set(bearer(key)).send({ episode_id: id, action: { type: 'resolve_ticket', resolution: 'no_action_needed' } }).expect(200);
    expect(await verify(app, id)).toMatchObject({ stored_score: expect.any(Number), ledger_ok: true });
    await between();
    // The rows go, and with them their ledger entries (a step's entry is stored in its row): nothing of the first
    // attempt is left in the file but the hole it leaves in the tenant's sequence.
    await behindItsBack(async (db) => {
      await dropTriggers(db);
      await db.run('DELETE FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)', [id]);
      const columns = Object.keys((await db.get<Record<string, unknown>>(`SELECT * FROM ${copy}`))!);
      await db.run(`UPDATE episodes SET ${columns.map((c) => `${c} = copy.${c}`).join(', ')} FROM ${copy} AS copy WHERE episodes.id = copy.id`);
      await db.exec(`DROP TABLE ${copy}`);
    });
    // The server signs the second attempt's rows itself: its chain and replay hold.
    for (const action of billing) await request(app.http).post('/step').set(bearer(key)).send({ episode_id: id, action }).expect(200);
    return id;
  }

  it('a rewind: a failed attempt restored from a copy and played again leaves a hole that verify reports, on the episode and the ledger', async () => {
    const id = await rewound(async () => void (await play(app, key, billing.slice(0, 2))));
    const report = await verify(app, id);
    expect(report).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: false, stored_score: 1, first_bad_index: 1 });
    expect(report.problem).toMatch(/2 entries of the tenant ledger between this episode's entries \d+ and \d+ are missing.*rewind/);
    const ledger = await ledgerOf(app, 'lab');
    expect(ledger.ledger_ok).toBe(false);
    expect(ledger.problems).toEqual([expect.stringMatching(/ledger entries 2-3 are missing/)]);
  });

  it('a rewind at the tail of the ledger, where no later entry shows the hole, is caught against the checkpoint written outside the database', async () => {
    const id = await rewound(async () => void (await app.app.get(LedgerCheckpoints).write()));
    expect(await verify(app, id)).toMatchObject({ chain_ok: true, replay_ok: true });
    const ledger = await ledgerOf(app, 'lab');
    expect(ledger).toMatchObject({ checkpoint_ok: false, checkpoint: { seq: 3 } });
    expect(ledger.problems).toEqual([expect.stringMatching(/ledger entry 3 is not the one checkpointed at .*rewritten from there/)]);
  });

  it('a deleted episode is caught by the tenant ledger', async () => {
    const failed = await play(app, key, [{ type: 'resolve_ticket', resolution: 'no_action_needed' }], { variant: 'canonical', tags: ['eval'] });
    await play(app, key, billing, { variant: 'canonical', tags: ['eval'] });
    expect((await ledgerOf(app, 'lab')).ledger_ok).toBe(true);
    await behindItsBack(async (db) => {
      await dropTriggers(db);
      for (const table of ['action_log', 'active_states']) await db.run(`DELETE FROM ${table} WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)`, [failed]);
      for (const table of ['episode_tags', 'step_requests']) await db.run(`DELETE FROM ${table} WHERE episode_id = ?`, [failed]);
      await db.run('DELETE FROM episodes WHERE id = ?', [failed]);
    });
    const report = await ledgerOf(app, 'lab');
    expect(report).toMatchObject({ ledger_ok: false, episodes: 1 });
    // Its creation and step entries went with its rows (ledger-rows.ts): a hole in the sequence where they were.
    expect(report.problems).toEqual([expect.stringMatching(/ledger entries 1-2 are missing/)]);
  });

  it("a cut ledger (the tail's entries and episode deleted) is caught against the checkpoint written outside the database", async () => {
    await play(app, key, billing.slice(0, 2));
    const failed = await play(app, key, [{ type: 'resolve_ticket', resolution: 'no_action_needed' }]);
    const [checkpoint] = (await app.app.get(LedgerCheckpoints).write()).filter((c) => c.seq > 0 && c.tenantId !== 'public');
    expect(checkpoint.seq).toBe(5);
    await behindItsBack(async (db) => {
      await dropTriggers(db);
      await db.run('DELETE FROM ledger_entries WHERE episode_id = ?', [failed]);
      for (const table of ['action_log', 'active_states']) await db.run(`DELETE FROM ${table} WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)`, [failed]);
      await db.run('DELETE FROM episode_tags WHERE episode_id = ?', [failed]);
      await db.run('DELETE FROM episodes WHERE id = ?', [failed]);
    });
    const report = await ledgerOf(app, 'lab');
    expect(report).toMatchObject({ ledger_ok: true, checkpoint: { seq: 5 }, checkpoint_ok: false, entries: 3 });
    expect(report.problems).toEqual([expect.stringMatching(/ends at entry 3, before the checkpoint .* at entry 5: its tail was cut/)]);
    // Played on from the cut, the ledger passes entry 5 again, but not the checkpointed one; no new checkpoint papers over it.
    await play(app, key, billing.slice(0, 1));
    expect(await ledgerOf(app, 'lab')).toMatchObject({ checkpoint_ok: false, problems: [expect.stringMatching(/entry 5 is not the one checkpointed/)] });
    expect((await app.app.get(LedgerCheckpoints).write()).filter((c) => c.tenantId === checkpoint.tenantId)).toEqual([]);
  });

  it("an episode's feedback mode changed from final to dense is caught", async () => {
    const id = (await request(app.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', feedback: 'final' }).expect(200)).body.episode_id;
    await behindItsBack((db) => db.run("UPDATE episodes SET feedback = 'dense' WHERE id = ?", [id]));
    expect(await verify(app, id)).toMatchObject({ chain_ok: true, ledger_ok: false, first_bad_index: 0, problem: expect.stringMatching(/feedback mode/) });
  });

  it('an expiry written into the file (to hide an episode from the active count) is caught', async () => {
    const id = await play(app, key, billing.slice(0, 1));
    await behindItsBack((db) => db.run("UPDATE episodes SET status = 'expired' WHERE id = ?", [id]));
    expect(await verify(app, id)).toMatchObject({ replay_ok: true, ledger_ok: false, problem: expect.stringMatching(/expiry is not in the ledger/) });
  });

  it('a forged checkpoint line is not taken for one', async () => {
    await play(app, key, billing.slice(0, 1));
    await app.app.get(LedgerCheckpoints).write();
    const file = checkpointFileOf(url);
    await behindItsBack(async () => {
      const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
      writeFileSync(file, lines.map((l) => JSON.stringify({ ...l, seq: 1 })).join('\n') + '\n');
    });
    expect((await ledgerOf(app, 'lab')).checkpoint).toBeNull();
  });
});

describe('episodes stored before the ledger', () => {
  it('are reported until the admin enrols them, then verify and go on', async () => {
    const url = freshDatabaseUrl();
    let app = await startTestApp(url, env);
    const { key } = await tenantWithKey(app.http, 'early');
    const id = await play(app, key, billing.slice(0, 2));
    await app.app.close();
    // As the previous release left it: the same rows, no ledger and no checkpoints.
    await withDirect(url, async (db) => {
      await dropTriggers(db);
      await db.run('DELETE FROM ledger_entries');
      await db.run('UPDATE action_log SET ledger_seq = NULL, ledger_mac = NULL, ledger_key_id = NULL, ledger_status = NULL');
      await db.run('UPDATE episodes SET ledger_seq = NULL, ledger_mac = NULL, facts_sha256 = NULL');
    });
    rmSync(checkpointFileOf(url));
    app = await startTestApp(url, env);
    try {
      expect(await verify(app, id)).toMatchObject({ chain_ok: true, ledger_ok: false, problem: expect.stringMatching(/not in its tenant ledger.*enroll/) });
      expect((await ledgerOf(app, 'early')).problems).toEqual([expect.stringMatching(/not in the ledger/)]);
      expect((await request(app.http).post('/admin/ledger/enroll').set(asAdmin).expect(200)).body).toMatchObject({ sealed: 0, enrolled: 1 });
      for (const action of billing.slice(2)) await request(app.http).post('/step').set(bearer(key)).send({ episode_id: id, action }).expect(200);
      expect(await verify(app, id)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true, stored_score: 1 });
      expect(await ledgerOf(app, 'early')).toMatchObject({ ledger_ok: true, entries: 5 });
      const events = (await request(app.http).get('/admin/events').set(asAdmin).expect(200)).body.events;
      expect(events[0]).toMatchObject({ action: 'ledger.enrolled', tenant: 'early', detail: { episodes: '1' } });
    } finally {
      await app.app.close();
    }
  });
});
