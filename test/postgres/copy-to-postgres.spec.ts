import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { ManualClock } from '../../src/common/clock';
import { loadConfig } from '../../src/config/app-config';
import { copySqliteToPostgres, type CopyPlan } from '../../tools/ops/copy-to-postgres/copy-database';
import { resolveCopyKeys } from '../../tools/ops/copy-to-postgres/copy-keys';
import { verifyTarget } from '../../tools/ops/copy-to-postgres/target-verification';
import { SOLUTIONS } from '../fixtures/solutions';
import { scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from '../support/tenants';
import { startTestApp } from '../support/test-app';

/*
 * copy-to-postgres on real databases: a SQLite database made by the real app (tenants, keys, episodes active,
 * resolved, tagged, in final feedback, with idempotent step records, a run with a regrade, a retention purge that
 * left a gap in a ledger, ledger checkpoints) is copied into a scratch PostgreSQL database; the app served from the
 * copy answers as the SQLite one did, verifies everything, and goes on (a step, a new episode, a new tenant). The
 * refusals change nothing. The command itself runs once as a child process.
 */

jest.setTimeout(240_000);

const BILLING = 'billing_duplicate_charge';
const billing = SOLUTIONS[BILLING].actions;
const DAY = 86_400_000;
// No idle expiry: the episodes were made on a stated clock, and the apps serving them later run on the machine's.
const env = { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY, EPISODE_IDLE_TIMEOUT_MINUTES: '0' };

type App = Awaited<ReturnType<typeof startTestApp>>;

interface Source {
  file: string;
  url: string;
  checkpoints: string;
  lab: { key: string; readerKey: string; tenantId: string };
  activeEpisode: string;
  resolvedEpisode: string;
  /** What the SQLite server answered, route by route, as the admin. */
  answers: Record<string, unknown>;
  /** The response to the active episode's second step, sent with request_id "r-2". */
  idempotentStep: unknown;
}

const dir = mkdtempSync(join(tmpdir(), 'supportdesk-copy-to-postgres-'));
const scratches: ScratchDatabase[] = [];
let source: Source;

async function scratch(label: string): Promise<ScratchDatabase> {
  const database = await scratchDatabase(label);
  scratches.push(database);
  return database;
}

function planFor(target: ScratchDatabase, overrides: Partial<CopyPlan> = {}, chainKey = CHAIN_KEY): CopyPlan {
  const config = loadConfig({ DATABASE_URL: source.url, CHAIN_KEY: chainKey });
  return {
    sourceFile: source.file,
    targetUrl: target.url,
    sourceCheckpointFile: source.checkpoints,
    targetCheckpointFile: join(dir, `${target.name}.ledger-checkpoints`),
    keys: resolveCopyKeys(config, source.file),
    ...overrides,
  };
}

const play = async (app: App, key: string, actions: object[], body: object = { variant: 'canonical' }) => {
  const id = (await request(app.http).post('/reset').set(bearer(key)).send(body).expect(200)).body.episode_id as string;
  for (const action of actions) await request(app.http).post('/step').set(bearer(key)).send({ episode_id: id, action }).expect(200);
  return id;
};

/** The routes whose answers must be the same on both databases. */
async function answersOf(app: App, episodes: string[]): Promise<Record<string, unknown>> {
  const routes = [
    '/episodes?tenant=lab-a&limit=50',
    '/episodes?tenant=lab-b&limit=50',
    '/episodes?tenant=public&limit=50',
    '/episodes?tenant=lab-a&tag=nightly',
    '/stats?tenant=lab-a',
    '/stats?tenant=purging',
    '/admin/tenants',
    ...episodes.flatMap((id) => [`/episodes/${id}?tenant=lab-a`, `/episodes/${id}/actions?tenant=lab-a`, `/episodes/${id}/steps/2?tenant=lab-a`, `/episodes/${id}/verify?tenant=lab-a`]),
  ];
  const answers: Record<string, unknown> = {};
  for (const route of routes) answers[route] = (await request(app.http).get(route).set(asAdmin).expect(200)).body;
  return answers;
}

async function buildSource(): Promise<Source> {
  const file = join(dir, 'source.db');
  copyFileSync(process.env.SUPPORTDESK_TEMPLATE_DB!, file);
  const url = `file:${file}`;
  const clock = new ManualClock('2026-11-01T12:00:00Z');
  const app = await startTestApp(url, env, { clock });
  try {
    const lab = await tenantWithKey(app.http, 'lab-a');
    const labB = await tenantWithKey(app.http, 'lab-b');
    const purging = await tenantWithKey(app.http, 'purging');
    // Two old finished episodes that the purge below removes, leaving a gap in the ledger between kept entries.
    await play(app, purging.key, billing);
    const keptActive = await play(app, purging.key, billing.slice(0, 2));
    await play(app, purging.key, billing);
    const resolvedEpisode = await play(app, lab.key, billing, { variant: 'canonical', tags: ['eval', 'nightly'], agent: 'copy-test/1', run_label: 'before-move' });
    await play(app, lab.key, billing.slice(0, 3), { variant: 'canonical', feedback: 'final', tags: ['eval'] });
    await play(app, labB.key, billing.slice(0, 1));
    await play(app, labB.key, billing);
    // Anonymous, in the public tenant (open mode).
    const anonymous = (await request(app.http).post('/reset').send({ variant: 'canonical' }).expect(200)).body.episode_id;
    await request(app.http).post('/step').send({ episode_id: anonymous, action: billing[0] }).expect(200);
    // An active episode stepped with request ids: its idempotency records are copied too.
    const activeEpisode = (await request(app.http).post('/reset').set(bearer(lab.key)).send({ variant: 'canonical' }).expect(200)).body.episode_id;
    await request(app.http).post('/step').set(bearer(lab.key)).send({ episode_id: activeEpisode, action: billing[0], request_id: 'r-1' }).expect(200);
    const idempotentStep = (await request(app.http).post('/step').set(bearer(lab.key)).send({ episode_id: activeEpisode, action: billing[1], request_id: 'r-2' }).expect(200)).body;
    // A run with its cells filled, and a regrade of it.
    const run = (
      await request(app.http).post('/runs').set(bearer(lab.key)).send({ name: 'moved', agent: 'copy-run/1', families: [BILLING], split: 'train', seed_count: 1, trials: 2 }).expect(201)
    ).body;
    for (let trial = 0; trial < 2; trial++) {
      const started = (await request(app.http).post('/reset').set(bearer(lab.key)).send({ run_id: run.run_id }).expect(200)).body;
      const ticket = (started.observation.inbox as { ticket_id: string; status?: string }[]).find((t) => t.status !== 'resolved')!.ticket_id;
      for (const action of [{ type: 'open_ticket', ticket_id: ticket }, { type: 'resolve_ticket', resolution: 'no_action_needed' }]) {
        await request(app.http).post('/step').set(bearer(lab.key)).send({ episode_id: started.episode_id, action }).expect(200);
      }
    }
    await request(app.http).post(`/runs/${run.run_id}/regrade`).set(bearer(lab.readerKey)).send({}).expect(201);
    // Ten days on, a seven-day retention purges the purging tenant's old finished episodes (not the active one).
    clock.advance(10 * DAY);
    await request(app.http).post('/step').set(bearer(purging.key)).send({ episode_id: keptActive, action: billing[2] }).expect(200);
    await request(app.http).put('/admin/tenants/purging/retention').set(asAdmin).send({ retention_days: 7 }).expect(200);
    const swept = (await request(app.http).post('/admin/retention/sweep').set(asAdmin).expect(200)).body;
    expect(swept.tenants[0]).toMatchObject({ tenant: 'purging', episodes: 2 });
    const answers = await answersOf(app, [resolvedEpisode, activeEpisode]);
    return { file, url, checkpoints: `${file}.ledger-checkpoints`, lab, activeEpisode, resolvedEpisode, answers, idempotentStep };
  } finally {
    // Closing writes the ledgers' checkpoints (at shutdown), which the copy must carry over.
    await app.app.close();
  }
}

const tablesIn = (url: string) =>
  withClient(url, async (client) => (await client.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).rows.length);

beforeAll(async () => {
  source = await buildSource();
});

afterAll(async () => {
  for (const database of scratches) await database.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe('copying a SQLite database into PostgreSQL', () => {
  let target: ScratchDatabase;
  let plan: CopyPlan;

  beforeAll(async () => {
    target = await scratch('copy');
    plan = planFor(target);
  });

  it('copies every table in full, sets the counters, carries the checkpoints over, and the copy verifies', async () => {
    const report = await copySqliteToPostgres(plan);
    const sqlite = new BetterSqlite3(source.file, { readonly: true });
    try {
      for (const table of report.tables) {
        const n = (sqlite.prepare(`SELECT COUNT(*) AS n FROM "${table.table}"`).get() as { n: number }).n;
        expect({ table: table.table, rows: table.target_rows }).toEqual({ table: table.table, rows: n });
      }
      const names = (sqlite.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'").all() as { name: string }[]).map((r) => r.name);
      expect(report.tables.map((t) => t.table).sort()).toEqual(names.sort());
      const gaps = (sqlite.prepare('SELECT COUNT(*) AS n FROM ledger_gaps').get() as { n: number }).n;
      expect(gaps).toBeGreaterThan(0);
      expect(report.tables.find((t) => t.table === 'step_requests')!.target_rows).toBeGreaterThanOrEqual(2);
      expect(report.tables.find((t) => t.table === 'run_regrade_results')!.target_rows).toBe(2);
      const highEpisode = (sqlite.prepare('SELECT seq FROM sqlite_sequence WHERE name = ?').get('episodes') as { seq: number }).seq;
      expect(report.serialCounters.find((c) => c.table === 'episodes')!.next).toBe(highEpisode + 1);
    } finally {
      sqlite.close();
    }
    // Times, booleans and bytes as PostgreSQL stores them: the same instants to the millisecond, and the same values.
    const original = new BetterSqlite3(source.file, { readonly: true });
    const expected = {
      created: original.prepare('SELECT created_at AS t FROM episodes ORDER BY serial').all().map((row) => Number((row as { t: number }).t)),
      changed: original.prepare('SELECT changed FROM run_regrade_results ORDER BY episode_id').all().map((row) => (row as { changed: number }).changed === 1),
      hashes: original.prepare('SELECT hex(hash) AS h FROM action_log ORDER BY episode_serial, step_index').all().map((row) => (row as { h: string }).h.toLowerCase()),
    };
    original.close();
    const stored = await withClient(target.url, async (client) => ({
      created: (await client.query('SELECT epoch_ms(created_at) AS t FROM episodes ORDER BY serial')).rows.map((row) => Number(row.t)),
      changed: (await client.query('SELECT changed FROM run_regrade_results ORDER BY episode_id')).rows.map((row) => row.changed as boolean),
      hashes: (await client.query("SELECT encode(hash, 'hex') AS h FROM action_log ORDER BY episode_serial, step_index")).rows.map((row) => row.h as string),
    }));
    expect(stored).toEqual(expected);
    // Vacuumed and analyzed after the commit, so the planner has statistics and the visibility map is set.
    const maintained = await withClient(target.url, async (client) =>
      (await client.query(`SELECT relname, last_vacuum IS NOT NULL AND last_analyze IS NOT NULL AS done FROM pg_stat_user_tables WHERE relname IN ('episodes', 'action_log') ORDER BY relname`)).rows,
    );
    expect(maintained).toEqual([
      { relname: 'action_log', done: true },
      { relname: 'episodes', done: true },
    ]);
    expect(stored.hashes.every((hash) => hash.length === 64)).toBe(true);
    expect(readFileSync(plan.targetCheckpointFile, 'utf8')).toBe(readFileSync(source.checkpoints, 'utf8'));
    expect(report.checkpoints.lines).toBeGreaterThan(0);

    const verification = await verifyTarget({ targetUrl: target.url, chainKey: CHAIN_KEY, checkpointFile: plan.targetCheckpointFile, env: {}, concurrency: 4 });
    expect(verification.episodes).toEqual({ checked: report.tables.find((t) => t.table === 'episodes')!.target_rows, failed: 0, failures: [] });
    expect(verification.ledgers.map((l) => [l.tenant, l.ledger_ok, l.checkpoint_ok, l.checkpoint !== null])).toEqual(
      expect.arrayContaining([
        ['lab-a', true, true, true],
        ['purging', true, true, true],
        ['public', true, true, true],
      ]),
    );
    expect(verification.ok).toBe(true);
  });

  it('serves the copy as the SQLite server served the original, and goes on from there', async () => {
    const app = await startTestApp(target.url, { ...env, LEDGER_CHECKPOINT_FILE: plan.targetCheckpointFile });
    try {
      expect(await answersOf(app, [source.resolvedEpisode, source.activeEpisode])).toEqual(source.answers);
      // The stored idempotency record answers a retried step as before.
      const retried = await request(app.http).post('/step').set(bearer(source.lab.key)).send({ episode_id: source.activeEpisode, action: billing[1], request_id: 'r-2' }).expect(200);
      expect(retried.body).toEqual(source.idempotentStep);
      // The active episode goes on; a new episode, tenant and key take fresh serials and ids.
      await request(app.http).post('/step').set(bearer(source.lab.key)).send({ episode_id: source.activeEpisode, action: billing[2], request_id: 'r-3' }).expect(200);
      const fresh = await play(app, source.lab.key, billing);
      const newcomer = await tenantWithKey(app.http, 'after-move');
      await play(app, newcomer.key, billing.slice(0, 2));
      for (const id of [source.activeEpisode, fresh]) {
        const report = (await request(app.http).get(`/episodes/${id}/verify?tenant=lab-a`).set(asAdmin).expect(200)).body;
        expect(report).toMatchObject({ chain_ok: true, replay_ok: true, ledger_ok: true });
      }
      const ledgers = (await request(app.http).get('/ledger/verify').set(asAdmin).expect(200)).body.tenants;
      for (const ledger of ledgers) expect(ledger).toMatchObject({ ledger_ok: true, checkpoint_ok: true });
      const events = (await request(app.http).get('/admin/events').set(asAdmin).expect(200)).body;
      expect(JSON.stringify(events)).toContain('after-move');
    } finally {
      await app.app.close();
    }
  });

  it('refuses a target that already holds data, and leaves it as it was', async () => {
    const before = await withClient(target.url, async (client) => (await client.query('SELECT COUNT(*)::int AS n FROM episodes')).rows[0].n);
    await expect(copySqliteToPostgres(planFor(target, { targetCheckpointFile: join(dir, 'unused.ledger-checkpoints') }))).rejects.toThrow(/already holds data \(in .*episodes/);
    expect(await withClient(target.url, async (client) => (await client.query('SELECT COUNT(*)::int AS n FROM episodes')).rows[0].n)).toBe(before);
    expect(existsSync(join(dir, 'unused.ledger-checkpoints'))).toBe(false);
  });
});

describe('refusals before anything is changed', () => {
  let target: ScratchDatabase;

  beforeAll(async () => {
    target = await scratch('refused');
  });

  afterEach(async () => {
    // Nothing was changed: not even the migrations applied.
    expect(await tablesIn(target.url)).toBe(0);
  });

  it('refuses a source a server has open', async () => {
    const app = await startTestApp(source.url, env);
    try {
      await expect(copySqliteToPostgres(planFor(target))).rejects.toThrow(/open in another process \(a server still running\?\)/);
    } finally {
      await app.app.close();
    }
  });

  it('refuses data made with a chain key it does not hold', async () => {
    await expect(copySqliteToPostgres(planFor(target, {}, 'another-chain-key-0123456789abcdef0123456789'))).rejects.toThrow(/keys this run does not hold: chain key\(s\) hk_/);
  });

  it('refuses a source behind this release\'s newest migration', async () => {
    const behind = join(dir, 'behind.db');
    copyFileSync(source.file, behind);
    const db = new BetterSqlite3(behind);
    db.exec("DELETE FROM _prisma_migrations WHERE migration_name = (SELECT MAX(migration_name) FROM _prisma_migrations)");
    db.close();
    await expect(copySqliteToPostgres(planFor(target, { sourceFile: behind }))).rejects.toThrow(/is not at this release's newest migration .*1 pending/);
  });

  it("refuses to overwrite another database's checkpoint file", async () => {
    const taken = join(dir, 'taken.ledger-checkpoints');
    writeFileSync(taken, '{"tenant_id":"someone-else"}\n');
    await expect(copySqliteToPostgres(planFor(target, { targetCheckpointFile: taken }))).rejects.toThrow(/already holds other checkpoints/);
    expect(readFileSync(taken, 'utf8')).toBe('{"tenant_id":"someone-else"}\n');
  });
});

it('runs as a command: a summary on stderr, one JSON line on stdout, exit code 0; 1 when refused', async () => {
  const target = await scratch('command');
  const checkpoints = join(dir, 'command.ledger-checkpoints');
  const run = (args: string[]) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [join(__dirname, '..', '..', 'tools', 'launch', 'launch.js'), 'ops/copy-to-postgres', ...args], {
        cwd: join(__dirname, '..', '..'),
        // The target's URL (and its password) through the environment, never the command line.
        env: { ...process.env, DATABASE_URL: '', LEDGER_CHECKPOINT_FILE: '', TARGET_DATABASE_URL: target.url, CHAIN_KEY },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
  const copied = await run(['--from', source.url, '--to-checkpoints', checkpoints]);
  expect(copied.stderr).toMatch(/copied: .* every table's count matches/);
  expect(copied.stderr).toMatch(/verify: \d+ episode\(s\), 0 failed/);
  expect(copied.code).toBe(0);
  const lines = copied.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  const report = JSON.parse(lines[0]);
  expect(report).toMatchObject({ ok: true, to: expect.stringContaining(target.name), verification: { ok: true, episodes: { failed: 0 } } });
  expect(copied.stdout + copied.stderr).not.toContain('supportdesk_test:supportdesk_test');

  const again = await run(['--from', source.url, '--to-checkpoints', checkpoints]);
  expect(again.code).toBe(1);
  expect(again.stdout).toBe('');
  expect(again.stderr).toMatch(/^copy-to-postgres: the target .* already holds data/m);
});
