import request from 'supertest';
import { ManualClock } from '../src/common/clock';
import { LedgerCheckpoints } from '../src/episodes/ledger/ledger-checkpoints';
import { gapsDigest, gapsOf } from '../src/episodes/ledger/ledger-gaps';
import { LEDGER_ROW_STATEMENTS } from '../src/episodes/ledger/ledger-rows';
import { EpisodeRepository } from '../src/episodes/episode.repository';
import { RetentionService } from '../src/retention/retention.service';
import { SOLUTIONS } from './fixtures/solutions';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from './support/tenants';
import { freshDatabaseUrl, startTestApp } from './support/test-app';
import { refusalOf, withDirect } from './support/direct-database';

/*
 * Retention and tenant deletion: purged episodes are gone with their log and ledger entries, everything that remains
 * verifies (episode by episode, ledger by ledger, against a checkpoint taken before the purge), the purge is in the
 * admin log and /stats; a forged purge (entries deleted by hand, a gap row made up) is caught; deletion removes a
 * tenant whole, its keys stop working, and needs its slug confirmed.
 */

const billing = SOLUTIONS.billing_duplicate_charge.actions;
const env = { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY };
const DAY = 86_400_000;

type App = Awaited<ReturnType<typeof startTestApp>>;

const verify = async (app: App, id: string) => (await request(app.http).get(`/episodes/${id}/verify`).set(asAdmin).expect(200)).body;
const ledgerOf = async (app: App, slug: string) => (await request(app.http).get(`/ledger/verify?tenant=${slug}`).set(asAdmin).expect(200)).body.tenants[0];
const sweep = async (app: App) => (await request(app.http).post('/admin/retention/sweep').set(asAdmin).expect(200)).body;
const count = (url: string, sql: string): Promise<number> => withDirect(url, async (db) => (await db.get<{ n: number }>(sql))!.n, { readonly: true });

/** A tenant's serial, by which its log rows name it (src/episodes/log-columns.ts): read it before the tenant goes. */
const tenantSerialOf = (url: string, tenantId: string) => count(url, `SELECT serial AS n FROM tenants WHERE id = '${tenantId}'`);

/** The rows of `table` a tenant owns, in SQL. */
const ownedBy = (table: string, tenant: { id: string; serial: number }) =>
  table === 'tenants' ? `id = '${tenant.id}'` : table === 'action_log' ? `tenant_serial = ${tenant.serial}` : `tenant_id = '${tenant.id}'`;

async function play(app: App, key: string, actions: object[]): Promise<string> {
  const id = (await request(app.http).post('/reset').set(bearer(key)).send({ variant: 'canonical', tags: ['eval'] }).expect(200)).body.episode_id;
  for (const action of actions) await request(app.http).post('/step').set(bearer(key)).send({ episode_id: id, action }).expect(200);
  return id;
}

/** Old finished episodes interleaved (in the ledger) with ones that stay: an active one and newer finished ones. */
async function mixedTenant(app: App, clock: ManualClock, slug: string) {
  const { key } = await tenantWithKey(app.http, slug);
  const oldA = await play(app, key, billing);
  const active = await play(app, key, billing.slice(0, 2));
  const oldB = await play(app, key, billing);
  clock.advance(5 * DAY);
  // Stepped after the old ones finished: its ledger entries sit between and after theirs.
  await request(app.http).post('/step').set(bearer(key)).send({ episode_id: active, action: billing[2] }).expect(200);
  const recent = await play(app, key, billing);
  return { key, old: [oldA, oldB], kept: [active, recent] };
}

describe('retention', () => {
  it('purges finished episodes past the period with their rows; what remains verifies, against a checkpoint too', async () => {
    const clock = new ManualClock('2026-11-01T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const lab = await mixedTenant(app, clock, 'keep-short');
      const other = await mixedTenant(app, clock, 'keep-all');
      await app.app.get(LedgerCheckpoints).write();
      const set = await request(app.http).put('/admin/tenants/keep-short/retention').set(asAdmin).send({ retention_days: 7 }).expect(200);
      expect(set.body).toMatchObject({ slug: 'keep-short', retention_days: 7 });

      const oldSerials = await Promise.all(lab.old.map((id) => count(app.databaseUrl, `SELECT serial AS n FROM episodes WHERE id = '${id}'`)));
      const result = await sweep(app);
      expect(result.tenants).toEqual([{ tenant: 'keep-short', retention_days: 7, episodes: 2, steps: 2 * billing.length, ledger_entries: 2 * (1 + billing.length) }]);
      for (const id of lab.old) await request(app.http).get(`/episodes/${id}`).set(asAdmin).expect(404);
      const left = (table: string) =>
        table === 'action_log'
          ? count(app.databaseUrl, `SELECT COUNT(*) AS n FROM action_log WHERE episode_serial IN (${oldSerials.join(', ')})`)
          : count(app.databaseUrl, `SELECT COUNT(*) AS n FROM ${table} WHERE ${table === 'episodes' ? 'id' : 'episode_id'} IN ('${lab.old.join("','")}')`);
      expect(await Promise.all([left('episodes'), left('action_log'), left('ledger_entries'), left('episode_tags')])).toEqual([0, 0, 0, 0]);

      for (const id of [...lab.kept, ...other.old, ...other.kept]) expect(await verify(app, id)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
      for (const slug of ['keep-short', 'keep-all']) expect(await ledgerOf(app, slug)).toMatchObject({ ledger_ok: true, checkpoint_ok: true, problems: [] });
      // The ledger goes on after the purge, and a new checkpoint can be written past it.
      await play(app, lab.key, billing.slice(0, 1));
      expect((await app.app.get(LedgerCheckpoints).write()).map((c) => c.seq).length).toBe(1);
      expect(await ledgerOf(app, 'keep-short')).toMatchObject({ ledger_ok: true, checkpoint_ok: true });

      const events = (await request(app.http).get('/admin/events').set(asAdmin).expect(200)).body.events;
      const purge = events.find((e: { action: string }) => e.action === 'episodes.purged');
      expect(purge).toMatchObject({ tenant: 'keep-short', detail: { reason: 'retention', episodes: 2, steps: 2 * billing.length } });
      expect(Object.keys(purge.detail.chain_heads).sort()).toEqual([...lab.old].sort());
      expect(purge.detail).toMatchObject({ retention_days: 7, ledger_entries: 2 * (1 + billing.length), skipped: 0 });
      const stats = (await request(app.http).get('/stats?tenant=keep-short').set(asAdmin).expect(200)).body;
      expect(stats.purged).toMatchObject({ episodes: 2, steps: 2 * billing.length, purges: 1 });
      expect((await request(app.http).get('/stats?tenant=keep-all').set(asAdmin).expect(200)).body.purged).toEqual({ episodes: 0, steps: 0, purges: 0, last_purge_at: null });

      // A second sweep has nothing left to purge; clearing the period stops purges.
      expect((await sweep(app)).tenants[0].episodes).toBe(0);
      expect((await request(app.http).delete('/admin/tenants/keep-short/retention').set(asAdmin).expect(200)).body.retention_days).toBeNull();
      clock.advance(30 * DAY);
      expect((await sweep(app)).tenants).toEqual([]);
    } finally {
      await app.app.close();
    }
  });

  it('a checkpoint whose entry was purged is still reached through its gap, and checkpoints go on', async () => {
    const clock = new ManualClock('2026-11-01T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const { key } = await tenantWithKey(app.http, 'checkpointed');
      const kept = await play(app, key, billing.slice(0, 1));
      await play(app, key, billing);
      // The ledger's head is now the old episode's last step, and the checkpoint names it.
      const [checkpoint] = await app.app.get(LedgerCheckpoints).write();
      clock.advance(10 * DAY);
      await request(app.http).put('/admin/tenants/checkpointed/retention').set(asAdmin).send({ retention_days: 7 }).expect(200);
      expect((await sweep(app)).tenants[0].episodes).toBe(1);
      expect(await count(app.databaseUrl, `SELECT COUNT(*) AS n FROM ledger_entries WHERE seq = ${checkpoint.seq} AND tenant_id = '${checkpoint.tenantId}'`)).toBe(0);
      expect(await ledgerOf(app, 'checkpointed')).toMatchObject({ ledger_ok: true, checkpoint: { seq: checkpoint.seq }, checkpoint_ok: true, problems: [] });
      expect(await app.app.get(LedgerCheckpoints).write()).toHaveLength(1);
      expect(await verify(app, kept)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
    } finally {
      await app.app.close();
    }
  });

  it("a run's results and its leaderboard row outlive its purged episodes; export and regrade leave them out", async () => {
    const clock = new ManualClock('2026-11-01T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const { key, readerKey } = await tenantWithKey(app.http, 'runs-kept');
      const run = (
        await request(app.http)
          .post('/runs')
          .set(bearer(key))
          .send({ name: 'kept', agent: 'purged-run-agent', families: ['billing_duplicate_charge'], split: 'train', seed_count: 1, trials: 2 })
          .expect(201)
      ).body;
      for (let trial = 0; trial < 2; trial++) {
        const started = (await request(app.http).post('/reset').set(bearer(key)).send({ run_id: run.run_id }).expect(200)).body;
        const ticket = (started.observation.inbox as Array<{ ticket_id: string; status?: string }>).find((t) => t.status !== 'resolved')!.ticket_id;
        for (const action of [{ type: 'open_ticket', ticket_id: ticket }, { type: 'resolve_ticket', resolution: 'no_action_needed' }]) {
          await request(app.http).post('/step').set(bearer(key)).send({ episode_id: started.episode_id, action }).expect(200);
        }
      }
      const before = (await request(app.http).get(`/runs/${run.run_id}`).set(bearer(readerKey)).expect(200)).body;
      expect(before.status).toBe('complete');
      const leaderboard = (await request(app.http).get('/leaderboard?split=train').set(bearer(readerKey)).expect(200)).body;
      expect(JSON.stringify(leaderboard)).toContain('purged-run-agent');
      const exported = (await request(app.http).get(`/runs/${run.run_id}/export`).set(bearer(readerKey)).expect(200)).text.trim().split('\n');
      expect(exported).toHaveLength(2);

      clock.advance(10 * DAY);
      await request(app.http).put('/admin/tenants/runs-kept/retention').set(asAdmin).send({ retention_days: 7 }).expect(200);
      expect((await sweep(app)).tenants[0].episodes).toBe(2);
      expect((await request(app.http).get(`/runs/${run.run_id}`).set(bearer(readerKey)).expect(200)).body).toEqual(before);
      expect((await request(app.http).get('/leaderboard?split=train').set(bearer(readerKey)).expect(200)).body).toEqual(leaderboard);
      expect((await request(app.http).get(`/runs/${run.run_id}/export`).set(bearer(readerKey)).expect(200)).text).toBe('');
      const regrade = (await request(app.http).post(`/runs/${run.run_id}/regrade`).set(bearer(readerKey)).send({}).expect(201)).body;
      expect(regrade).toMatchObject({ episodes: 0, changed: 0 });
    } finally {
      await app.app.close();
    }
  });

  it('a purge forged with the database file (entries deleted, a gap made up) is caught by ledger verify', async () => {
    const clock = new ManualClock('2026-11-01T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const lab = await mixedTenant(app, clock, 'forged');
      await withDirect(app.databaseUrl, async (db) => {
        // The old episode's first entry, its creation, is stored in its row (src/episodes/ledger/ledger-rows.ts).
        const first = (await db.get<{ seq: number; mac: string }>(`SELECT ledger_seq AS seq, lower(hex(ledger_mac)) AS mac FROM episodes WHERE id = ?`, [lab.old[0]]))!;
        await db.dropTrigger('episodes_ledger_entry_no_update', 'episodes');
        await db.run(`UPDATE episodes SET ledger_seq = NULL, ledger_mac = NULL, facts_sha256 = NULL WHERE id = ?`, [lab.old[0]]);
        await db.run(`INSERT INTO ledger_gaps (tenant_id, first_seq, last_seq, last_mac, purge_seq) SELECT id, ?, ?, ?, 999 FROM tenants WHERE slug = 'forged'`, [first.seq, first.seq, first.mac]);
      });
      const report = await ledgerOf(app, 'forged');
      expect(report.ledger_ok).toBe(false);
      expect(report.problems.join('\n')).toMatch(/no purge entry of the ledger records them/);
    } finally {
      await app.app.close();
    }
  });

  it("a purge made up with the file (entries deleted, their gaps and a purge entry written without the key) fails the verify of an episode around them", async () => {
    const clock = new ManualClock('2026-11-01T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const lab = await mixedTenant(app, clock, 'made-up');
      // The kept active episode's entries come before and after the second old one's.
      expect(await verify(app, lab.kept[0])).toMatchObject({ ledger_ok: true });
      await withDirect(app.databaseUrl, async (db) => {
        const tenant = (await db.get<{ id: string }>(`SELECT id FROM tenants WHERE slug = 'made-up'`))!.id;
        const removed = await db.all<{ seq: number; mac: string; keyId: string }>(LEDGER_ROW_STATEMENTS.selectEntriesOfEpisode, { tenant, episode: lab.old[1] });
        const head = Math.max(...(await db.all<{ seq: number }>(LEDGER_ROW_STATEMENTS.selectPage, { tenant, after: 0, take: 10_000 })).map((e) => e.seq));
        // The guard lets deletes through inside the transaction that holds it, as the server's purge does.
        await db.exec('BEGIN');
        await db.run(`INSERT INTO purge_guard (id, reason) VALUES (1, 'forged')`);
        await db.run('DELETE FROM action_log WHERE episode_serial = (SELECT serial FROM episodes WHERE id = ?)', [lab.old[1]]);
        await db.run('DELETE FROM ledger_entries WHERE episode_id = ?', [lab.old[1]]);
        await db.run('DELETE FROM purge_guard');
        await db.exec('COMMIT');
        const gaps = gapsOf(removed);
        for (const gap of gaps) {
          await db.run('INSERT INTO ledger_gaps (tenant_id, first_seq, last_seq, last_mac, purge_seq) VALUES (?, ?, ?, ?, ?)', [tenant, gap.firstSeq, gap.lastSeq, gap.lastMac, head + 1]);
        }
        // Everything a real purge entry says, and the digest of the gaps, under a MAC made without the key.
        const body = JSON.stringify({ gaps: gaps.length, gaps_digest: gapsDigest(gaps), reason: 'retention' });
        await db.run(
          `INSERT INTO ledger_entries (tenant_id, seq, kind, episode_id, step_index, body, key_id, mac, created_at) VALUES (?, ?, 'episodes.purged', '', 0, ?, ?, ?, ?)`,
          [tenant, head + 1, body, removed[0].keyId, 'ab'.repeat(32), new Date(1794052800000)],
        );
      });
      const report = await verify(app, lab.kept[0]);
      expect(report).toMatchObject({ chain_ok: true, ledger_ok: false, problem: expect.stringMatching(/the purge \(ledger entry \d+\) that accounts for entries missing around this episode's does not hold: .*does not match its MAC/) });
      expect((await ledgerOf(app, 'made-up')).ledger_ok).toBe(false);
    } finally {
      await app.app.close();
    }
  });

  it('the rows cannot make the server purge: a retention period, a status or a time set in the file is not acted on', async () => {
    const clock = new ManualClock('2026-11-01T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const lab = await mixedTenant(app, clock, 'tampered');
      const unset = await mixedTenant(app, clock, 'never-set');
      clock.advance(10 * DAY);
      // Through the API the period is 30 days: nothing is old enough, whatever the rows say.
      await request(app.http).put('/admin/tenants/tampered/retention').set(asAdmin).send({ retention_days: 30 }).expect(200);
      await withDirect(app.databaseUrl, async (db) => {
        await db.run(`UPDATE tenants SET retention_days = 1 WHERE slug IN ('tampered', 'never-set')`);
        const old = new Date('2020-01-01T00:00:00Z');
        for (const id of [...lab.kept, ...unset.old, ...unset.kept]) await db.run(`UPDATE episodes SET status = 'resolved', updated_at = ? WHERE id = ?`, [old, id]);
      });
      const swept = await sweep(app);
      expect(swept.tenants.map((t: { tenant: string; episodes: number }) => [t.tenant, t.episodes])).toEqual([
        ['tampered', 0],
        ['never-set', 0],
      ]);
      for (const id of [...lab.old, ...lab.kept, ...unset.old, ...unset.kept]) await request(app.http).get(`/episodes/${id}`).set(asAdmin).expect(200);
      expect((await request(app.http).get('/stats?tenant=tampered').set(asAdmin).expect(200)).body.purged.purges).toBe(0);
    } finally {
      await app.app.close();
    }
  });

  it('gap rows made up to loop, or a purge entry rewritten, are reported, never a hang or a 500; episode verify trusts no stray gap', async () => {
    const clock = new ManualClock('2026-11-01T12:00:00Z');
    const app = await startTestApp(freshDatabaseUrl(), env, { clock });
    try {
      const lab = await mixedTenant(app, clock, 'looped');
      const tenant = `(SELECT id FROM tenants WHERE slug = 'looped')`;
      await withDirect(app.databaseUrl, async (db) => {
        await db.run(`INSERT INTO ledger_gaps (tenant_id, first_seq, last_seq, last_mac, purge_seq) SELECT id, 2, 1, 'x', 99 FROM tenants WHERE slug = 'looped'`);
        // The old episode's first entry removed behind a gap that names no purge: the next episode's verify must not pass.
        const first = (await db.get<{ seq: number; mac: string }>(`SELECT ledger_seq AS seq, lower(hex(ledger_mac)) AS mac FROM episodes WHERE id = ?`, [lab.old[1]]))!;
        // The gap keeps the removed entry's true MAC, so the next entry's MAC holds: only what the gap claims is false.
        // That entry is the previous episode's last step, stored in its action_log row (src/episodes/ledger/ledger-rows.ts).
        const stepOfTenant = `ledger_seq = ? AND tenant_serial = (SELECT serial FROM tenants WHERE id = ${tenant})`;
        const removed = (await db.get<{ mac: string }>(`SELECT lower(hex(ledger_mac)) AS mac FROM action_log WHERE ${stepOfTenant}`, [first.seq - 1]))!;
        await db.exec('BEGIN');
        await db.run(`INSERT INTO purge_guard (id, reason) VALUES (1, 'forged')`);
        await db.run(`DELETE FROM action_log WHERE ${stepOfTenant}`, [first.seq - 1]);
        await db.run(`DELETE FROM purge_guard`);
        await db.exec('COMMIT');
        await db.run(`INSERT INTO ledger_gaps (tenant_id, first_seq, last_seq, last_mac, purge_seq) SELECT id, ?, ?, ?, 3 FROM tenants WHERE slug = 'looped'`, [
          first.seq - 1,
          first.seq - 1,
          removed.mac,
        ]);
        await db.dropTrigger('ledger_entries_no_update', 'ledger_entries');
        await db.run(`UPDATE ledger_entries SET kind = 'episodes.purged', body = 'not json' WHERE seq = 3 AND tenant_id = ${tenant}`);
      });
      const report = await ledgerOf(app, 'looped');
      expect(report.ledger_ok).toBe(false);
      expect(report.problems.join('\n')).toMatch(/does not fit the ledger/);
      expect((await request(app.http).get('/ledger/verify').set(asAdmin).expect(200)).body.tenants.length).toBeGreaterThan(1);
      expect(await verify(app, lab.old[1])).toMatchObject({ ledger_ok: false, problem: expect.stringMatching(/is missing/) });
      await request(app.http).get('/health').expect(200);
    } finally {
      await app.app.close();
    }
  });

  it('outside a purge the log and the ledger still refuse deletes; bad retention values are refused and change nothing', async () => {
    const app = await startTestApp(freshDatabaseUrl(), env);
    try {
      const { key } = await tenantWithKey(app.http, 'strict');
      const id = await play(app, key, billing.slice(0, 1));
      // A row in ledger_entries too (the public tenant's period: this one's must stay unset).
      await request(app.http).put('/admin/tenants/public/retention').set(asAdmin).send({ retention_days: 30 }).expect(200);
      await withDirect(app.databaseUrl, async (db) => {
        expect(await refusalOf(db.run('DELETE FROM action_log'))).toMatch(/append-only/);
        expect(await refusalOf(db.run('DELETE FROM ledger_entries'))).toMatch(/append-only/);
        expect(await refusalOf(db.run('UPDATE episodes SET ledger_mac = ? WHERE id = ?', [Buffer.alloc(32), id]))).toMatch(/append-only/);
        expect(await refusalOf(db.run('UPDATE episodes SET ledger_seq = ledger_seq + 1000 WHERE id = ?', [id]))).toMatch(/append-only/);
      });
      for (const body of [{ retention_days: 0 }, { retention_days: 1.5 }, { retention_days: '30' }, {}, { retention_days: null }, { retention_days: 36_501 }]) {
        const res = await request(app.http).put('/admin/tenants/strict/retention').set(asAdmin).send(body).expect(422);
        expect(res.body.details[0].field).toBe('retention_days');
      }
      await request(app.http).put('/admin/tenants/nobody/retention').set(asAdmin).send({ retention_days: 3 }).expect(404);
      await request(app.http).put('/admin/tenants/strict/retention').set(bearer(key)).send({ retention_days: 3 }).expect(403);
      const tenants = (await request(app.http).get('/admin/tenants').set(asAdmin).expect(200)).body.tenants;
      expect(tenants.find((t: { slug: string }) => t.slug === 'strict').retention_days).toBeNull();
    } finally {
      await app.app.close();
    }
  });
});

describe('tenant deletion', () => {
  it('removes the tenant and all it owns once its slug is confirmed; its keys stop working; the others still verify', async () => {
    const app = await startTestApp(freshDatabaseUrl(), env);
    try {
      const gone = await tenantWithKey(app.http, 'leaving');
      const stays = await tenantWithKey(app.http, 'staying');
      const kept = await play(app, stays.key, billing);
      await play(app, gone.key, billing);
      await play(app, gone.key, billing.slice(0, 2));
      await request(app.http).delete('/admin/tenants/leaving').set(asAdmin).expect(422);
      await request(app.http).delete('/admin/tenants/leaving?confirm=staying').set(asAdmin).expect(409);
      await request(app.http).delete('/admin/tenants/public?confirm=public').set(asAdmin).expect(409);
      await request(app.http).delete('/admin/tenants/nobody?confirm=nobody').set(asAdmin).expect(404);
      await request(app.http).post('/reset').set(bearer(gone.key)).send({}).expect(200);

      const [goneRows, staysRows] = await Promise.all([gone, stays].map(async (t) => ({ id: t.tenantId, serial: await tenantSerialOf(app.databaseUrl, t.tenantId) })));
      const deleted = await request(app.http).delete('/admin/tenants/leaving?confirm=leaving').set(asAdmin).expect(200);
      expect(deleted.body).toMatchObject({ tenant: 'leaving', episodes: 3, steps: billing.length + 2, keys: 2, runs: 0 });
      expect(deleted.body.ledger_seq).toBe(3 + billing.length + 2);
      await request(app.http).post('/reset').set(bearer(gone.key)).send({}).expect(401);
      const event = (await request(app.http).get('/admin/events').set(asAdmin).expect(200)).body.events.find((e: { action: string }) => e.action === 'tenant.deleted');
      expect(event).toMatchObject({ detail: { slug: 'leaving', episodes: 3, keys: 2 } });
      for (const table of ['episodes', 'action_log', 'ledger_entries', 'episode_tags', 'api_keys', 'tenants']) {
        expect([table, await count(app.databaseUrl, `SELECT COUNT(*) AS n FROM ${table} WHERE ${ownedBy(table, goneRows)}`)]).toEqual([table, 0]);
        // The staying tenant's ledger is all in its episodes and log rows (ledger-rows.ts): ledger_entries has none of it.
        if (table !== 'ledger_entries') expect([table, await count(app.databaseUrl, `SELECT COUNT(*) AS n FROM ${table} WHERE ${ownedBy(table, staysRows)}`)]).not.toEqual([table, 0]);
      }
      expect((await request(app.http).get('/admin/tenants').set(asAdmin).expect(200)).body.tenants.map((t: { slug: string }) => t.slug)).not.toContain('leaving');
      expect(await verify(app, kept)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
      expect(await ledgerOf(app, 'staying')).toMatchObject({ ledger_ok: true, problems: [] });
      // The slug is free again: a new tenant by that name starts empty.
      await tenantWithKey(app.http, 'leaving');
      expect((await request(app.http).get('/episodes?tenant=leaving').set(asAdmin).expect(200)).body.items).toEqual([]);
    } finally {
      await app.app.close();
    }
  });

  it('goes a batch of episodes per write; a deletion cut short is finished at the next start, and meanwhile the tenant is gone from the API', async () => {
    const url = freshDatabaseUrl();
    let app = await startTestApp(url, env);
    const cut = await tenantWithKey(app.http, 'cut-short');
    const stays = await tenantWithKey(app.http, 'stays-on');
    const kept = await play(app, stays.key, billing);
    for (let i = 0; i < 5; i++) await play(app, cut.key, billing.slice(0, 2));
    // A write removes at most the batch it is given, and says how many went.
    const cutRows = { id: cut.tenantId, serial: await tenantSerialOf(url, cut.tenantId) };
    const episodes = app.app.get(EpisodeRepository);
    expect([await episodes.deleteTenantEpisodes(cut.tenantId, 2), await episodes.deleteTenantEpisodes(cut.tenantId, 2)]).toEqual([2, 2]);
    // As a stop after the first write and a batch would leave it: marked, keys revoked, part of its episodes gone.
    await withDirect(url, async (db) => {
      const at = new Date('2026-12-03T10:00:00Z');
      await db.run(`UPDATE tenants SET deleting_at = ? WHERE id = ?`, [at, cut.tenantId]);
      await db.run(`UPDATE api_keys SET revoked_at = ? WHERE tenant_id = ?`, [at, cut.tenantId]);
    });
    expect((await request(app.http).get('/admin/tenants').set(asAdmin).expect(200)).body.tenants.map((t: { slug: string }) => t.slug)).not.toContain('cut-short');
    await request(app.http).delete('/admin/tenants/cut-short?confirm=cut-short').set(asAdmin).expect(404);
    const again = await request(app.http).post('/admin/tenants').set(asAdmin).send({ slug: 'cut-short', name: 'again' }).expect(409);
    expect(again.body.message).toMatch(/being deleted/);
    await app.app.close();

    app = await startTestApp(url, env);
    try {
      await app.app.get(RetentionService).deletionsResumed();
      for (const table of ['tenants', 'episodes', 'action_log', 'ledger_entries', 'api_keys']) {
        expect([table, await count(url, `SELECT COUNT(*) AS n FROM ${table} WHERE ${ownedBy(table, cutRows)}`)]).toEqual([table, 0]);
      }
      const events = (await request(app.http).get('/admin/events').set(asAdmin).expect(200)).body.events.filter((e: { tenant: string }) => e.tenant === cut.tenantId);
      expect(events.map((e: { action: string }) => e.action).slice(0, 2)).toEqual(['tenant.deleted', 'tenant.deletion_resumed']);
      expect(events[1].detail).toMatchObject({ episodes: 1, keys: 2 });
      await request(app.http).post('/reset').set(bearer(cut.key)).send({}).expect(401);
      expect(await verify(app, kept)).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
      await tenantWithKey(app.http, 'cut-short');
      // Two deletions of one tenant at once: one carries it through, the other finds it gone.
      const twice = await tenantWithKey(app.http, 'deleted-twice');
      await play(app, twice.key, billing.slice(0, 2));
      const answers = await Promise.all([1, 2].map(() => request(app.http).delete('/admin/tenants/deleted-twice?confirm=deleted-twice').set(asAdmin)));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 404]);
      const logged = (await request(app.http).get('/admin/events').set(asAdmin).expect(200)).body.events.filter((e: { tenant: string }) => e.tenant === twice.tenantId);
      expect(logged.map((e: { action: string }) => e.action).filter((a: string) => a !== 'key.issued')).toEqual(['tenant.deleted', 'tenant.deletion_started', 'tenant.created']);
    } finally {
      await app.app.close();
    }
  });
});
