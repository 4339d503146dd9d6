import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { migratePostgres } from '../../src/database/postgres-migrate';
import { LedgerCheckpoints } from '../../src/episodes';
import { chainKeyOf } from '../../src/episodes/hash-chain';
import { backupFiles } from '../../tools/ops/database-backup';
import type { PostgresBackupReport } from '../../tools/ops/postgres-backup';
import type { PostgresRestoreReport } from '../../tools/ops/postgres-restore';
import { scratchDatabase, withClient, type ScratchDatabase } from '../support/postgres';
import { ledgerReports, steppingClient, until, type Ack } from '../support/stepping-clients';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from '../support/tenants';
import { startTestApp } from '../support/test-app';

/*
 * docs/backup.md "On PostgreSQL", as test/backup-restore.e2e-spec.ts holds the SQLite path to it: `npm run backup`
 * run as its own process while clients reset and step episodes on a real server; `npm run restore` into another
 * database, served again: every step acknowledged before the backup began is there, every episode and ledger
 * verifies against the checkpoint the backup carries. And the refusals: a backup's name taken, a database in use,
 * a damaged backup (caught by its checksum, or, re-summed, by the load, which then changes nothing).
 */

type App = Awaited<ReturnType<typeof startTestApp>>;

const ROOT = join(__dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'supportdesk-pg-backup-'));
const backup = backupFiles(join(work, 'backups', 'supportdesk.dump'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run backup` / `npm run restore` as the operator runs them, from source, in a process of their own. */
function runTool(tool: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(ROOT, 'tools', 'ops', `${tool}.ts`), ...args],
      { cwd: ROOT, env: { ...process.env, TS_NODE_PROJECT: 'tsconfig.jest.json', LOG_LEVEL: 'silent', ...env }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const lastJson = <T>(run: Run): T => JSON.parse(run.stdout.trim().split('\n').pop()!) as T;

/** Checkpoints are written by the test, at the moments it chooses (and by the server at shutdown). */
const serverEnv = (url: string, checkpointFile: string) => ({
  DATABASE_URL: url,
  ADMIN_API_KEY: ADMIN_KEY,
  CHAIN_KEY,
  LEDGER_CHECKPOINT_FILE: checkpointFile,
  LEDGER_CHECKPOINT_INTERVAL_MS: '3600000',
});

const tableCount = (url: string) =>
  withClient(url, async (c) => Number((await c.query(`SELECT count(*) AS n FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'`)).rows[0].n));

describe('backup under load on PostgreSQL, then restore into another database', () => {
  let live: ScratchDatabase;
  let target: ScratchDatabase;
  const liveCheckpointFile = join(work, 'live', 'postgresql.ledger-checkpoints');
  const targetCheckpointFile = join(work, 'target', 'postgresql.ledger-checkpoints');
  let ackedBefore: Ack[] = [];
  let ackedDuringBackup = 0;
  let report: PostgresBackupReport;
  let checkpointBeforeBackup = 0;
  let refusedWhileServing: Run;

  beforeAll(async () => {
    live = await scratchDatabase('backup_live');
    target = await scratchDatabase('backup_target');
    // The server migrates at start (main.ts); the test app is built without that step.
    await migratePostgres({ connectionString: live.url });
    const app = await startTestApp(live.url, serverEnv(live.url, liveCheckpointFile));
    const acks: Ack[] = [];
    let stop = false;
    let clients: Promise<void>[] = [];
    try {
      const { key } = await tenantWithKey(app.http, 'lab');
      clients = [key, key, key, null, null, null].map((k) => steppingClient(app, k, acks, () => stop));
      await until(() => acks.length >= 20);
      const checkpoints = app.app.get(LedgerCheckpoints);
      checkpointBeforeBackup = (await checkpoints.write()).find((c) => c.tenantId !== 'public')!.seq;
      await until(() => acks.length >= 30);

      ackedBefore = [...acks];
      // The process starts after this line: nothing acknowledged before it can be missing from its snapshot.
      const run = await runTool('backup', ['--to', backup.database], serverEnv(live.url, liveCheckpointFile));
      expect([run.code, run.stderr]).toEqual([0, expect.stringContaining('check: pg_restore read it back whole')]);
      report = lastJson<PostgresBackupReport>(run);
      ackedDuringBackup = acks.length - ackedBefore.length;

      // The server goes on: its ledgers move past the backup, and a checkpoint of that is written outside the database.
      await until(() => acks.length >= ackedBefore.length + ackedDuringBackup + 10);
      await checkpoints.write();
      refusedWhileServing = await runTool('restore', ['--from', backup.database, '--force'], serverEnv(live.url, join(work, 'unused')));
    } finally {
      stop = true;
      await Promise.all(clients);
      await app.app.close();
    }
  });

  afterAll(async () => {
    await live?.drop();
    await target?.drop();
    rmSync(work, { recursive: true, force: true });
  });

  it('dumped one snapshot while the clients were being served, and summed it in sha256sum format', async () => {
    expect(ackedDuringBackup).toBeGreaterThan(0);
    const [line] = readFileSync(backup.checksumFile, 'utf8').split('\n');
    expect(line).toBe(`${report.sha256}  supportdesk.dump`);
    expect(report).toMatchObject({ kind: 'postgresql', check: 'pg_restore', database: expect.stringMatching(/^127\.0\.0\.1:\d+\/sd_backup_live_/) });
    expect(report.archive.tablesWithData).toBeGreaterThan(10);
    expect(report.point.migration?.name).toMatch(/^\d{14}_/);
    expect(report.point.ledgers.map((l) => l.tenant).sort()).toEqual(['lab', 'public']);
    // The checkpoint written before the backup (one line per tenant) is carried, and the snapshot holds its entries.
    const lab = report.point.ledgers.find((l) => l.tenant === 'lab')!;
    expect(lab.seq).toBeGreaterThan(checkpointBeforeBackup);
    expect(report.checkpoints).toMatchObject({ kept: 2, beyond: [], contradicted: [], unreadable: 0 });
    expect(readFileSync(backup.checkpointsFile, 'utf8')).toContain(`"seq":${checkpointBeforeBackup}`);
    // Neither the summary nor the report repeats the password.
    expect(JSON.stringify(report)).not.toContain('supportdesk_test:');
  });

  it('refuses what it must: a backup over an existing one, SQLite-only flags, a database in use', async () => {
    const again = await runTool('backup', ['--to', backup.database], serverEnv(live.url, liveCheckpointFile));
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/exists; give --force to replace it/)]);
    const stepPages = await runTool('backup', ['--to', join(work, 'other.dump'), '--step-pages', '8'], serverEnv(live.url, liveCheckpointFile));
    expect([stepPages.code, stepPages.stderr]).toEqual([2, expect.stringContaining('--step-pages is for SQLite')]);
    const to = await runTool('restore', ['--from', backup.database, '--to', join(work, 'x.db')], serverEnv(target.url, targetCheckpointFile));
    expect([to.code, to.stderr]).toEqual([2, expect.stringContaining('--to is for SQLite')]);
    expect([refusedWhileServing.code, refusedWhileServing.stderr]).toEqual([1, expect.stringMatching(/is in use: \d+ other session\(s\) .*stop the server/)]);
    expect(existsSync(join(work, 'unused'))).toBe(false);
  });

  it('says which package to install when pg_dump is missing', async () => {
    const run = await runTool('backup', ['--to', join(work, 'no-tools.dump')], { ...serverEnv(live.url, liveCheckpointFile), PATH: join(work, 'empty-path') });
    expect([run.code, run.stderr]).toEqual([1, expect.stringContaining('pg_dump was not found on PATH')]);
    expect(run.stderr).toContain('postgresql-client');
    expect(existsSync(join(work, 'no-tools.dump'))).toBe(false);
  });

  it('refuses a backup one byte of which changed, and touches nothing', async () => {
    const corrupt = backupFiles(join(work, 'corrupt', 'supportdesk.dump'));
    const bytes = readFileSync(backup.database);
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    mkdirSync(join(work, 'corrupt'));
    writeFileSync(corrupt.database, bytes);
    copyFileSync(backup.checksumFile, corrupt.checksumFile);
    copyFileSync(backup.checkpointsFile, corrupt.checkpointsFile);
    const run = await runTool('restore', ['--from', corrupt.database], serverEnv(target.url, targetCheckpointFile));
    expect([run.code, run.stderr]).toEqual([1, expect.stringContaining('does not match its checksum')]);
    expect(await tableCount(target.url)).toBe(0);
    expect(existsSync(targetCheckpointFile)).toBe(false);
  });

  it('restored with its checkpoints into another database, serves every acknowledged step, and every episode and ledger verifies', async () => {
    // The target server's checkpoint file, which outlived its database, has seen the ledgers further than the backup.
    mkdirSync(join(work, 'target'), { recursive: true });
    copyFileSync(liveCheckpointFile, targetCheckpointFile);
    const run = await runTool('restore', ['--from', backup.database], serverEnv(target.url, targetCheckpointFile));
    expect([run.code, run.stderr]).toEqual([0, expect.stringContaining('in one transaction')]);
    const restored = lastJson<PostgresRestoreReport & { missingKeys: { chain: string[] } }>(run);
    expect(restored.point).toEqual(report.point);
    expect(restored.sha256).toBe(report.sha256);
    expect(restored.pendingMigrations).toEqual([]);
    expect(restored.keys.chain).toEqual([chainKeyOf(CHAIN_KEY).id]);
    expect(restored.missingKeys.chain).toEqual([]);
    // The backup's checkpoint lines are the file now; the old one is kept, and says how far the ledgers had got.
    expect(readFileSync(targetCheckpointFile, 'utf8')).toBe(readFileSync(backup.checkpointsFile, 'utf8'));
    expect(readFileSync(restored.checkpoints.movedAside!, 'utf8')).toBe(readFileSync(liveCheckpointFile, 'utf8'));
    const lab = report.point.ledgers.find((l) => l.tenant === 'lab')!;
    expect(restored.checkpoints.rolledBack).toContainEqual(expect.objectContaining({ tenant: 'lab', restoredSeq: lab.seq }));
    const again = await runTool('restore', ['--from', backup.database], serverEnv(target.url, targetCheckpointFile));
    expect([again.code, again.stderr]).toEqual([1, expect.stringMatching(/holds \d+ table\(s\); stop the server and give --force/)]);

    const app = await startTestApp(target.url, serverEnv(target.url, targetCheckpointFile));
    try {
      const byEpisode = new Map<string, Ack[]>();
      for (const ack of ackedBefore) byEpisode.set(ack.episodeId, [...(byEpisode.get(ack.episodeId) ?? []), ack]);
      for (const [episodeId, acks] of byEpisode) {
        const state = await request(app.http).get(`/state/${episodeId}`).set(acks[0].key ? bearer(acks[0].key) : {}).expect(200);
        const steps = new Set((state.body.actions as { step: number }[]).map((a) => a.step));
        expect(acks.filter((ack) => !steps.has(ack.step))).toEqual([]);
      }
      const episodes = await withClient(target.url, async (c) => (await c.query<{ id: string }>('SELECT id FROM episodes')).rows);
      expect(episodes.length).toBeGreaterThanOrEqual(byEpisode.size);
      for (const { id } of episodes) {
        const verify = (await request(app.http).get(`/episodes/${id}/verify`).set(asAdmin).expect(200)).body;
        expect([id, verify]).toEqual([id, expect.objectContaining({ chain_ok: true, replay_ok: true, ledger_ok: true })]);
      }
      const reports = await ledgerReports(app);
      for (const r of reports) expect([r.tenant, r.ledger_ok, r.checkpoint_ok, r.problems]).toEqual([r.tenant, true, true, []]);
      // The checkpoint the backup carries, written before it began, is what the restored ledger is held to.
      expect(reports.find((r) => r.tenant === 'lab')).toMatchObject({ entries: lab.seq, checkpoint: { seq: checkpointBeforeBackup } });
    } finally {
      await app.app.close();
    }
    // The append-only triggers came back with the tables, after the data they would have refused nothing of anyway.
    await expect(withClient(target.url, (c) => c.query('UPDATE action_log SET step_index = step_index'))).rejects.toThrow(/action_log is append-only/);
  });

  it('a damaged dump summed again fails in the load, which changes nothing: database and checkpoint file as they were', async () => {
    const damaged = backupFiles(join(work, 'damaged', 'supportdesk.dump'));
    mkdirSync(join(work, 'damaged'));
    const bytes = readFileSync(backup.database);
    // The last bytes: pg_dump writes its table of contents first and the tables' data after it, so the damage is
    // in the data whatever the dump's size (a fraction of the length can land in a large table of contents).
    // pg_restore reads the contents, starts the load, then fails on the damaged block.
    bytes.fill(0x55, bytes.length - 64);
    writeFileSync(damaged.database, bytes);
    copyFileSync(backup.checkpointsFile, damaged.checkpointsFile);
    const sums = readFileSync(backup.checksumFile, 'utf8').split('\n');
    sums[0] = `${createHash('sha256').update(bytes).digest('hex')}  supportdesk.dump`;
    writeFileSync(damaged.checksumFile, sums.join('\n'));
    const checkpointsBefore = readFileSync(targetCheckpointFile, 'utf8');
    const episodesBefore = await withClient(target.url, async (c) => Number((await c.query('SELECT count(*) AS n FROM episodes')).rows[0].n));
    writeFileSync(targetCheckpointFile, checkpointsBefore + '\n');

    const run = await runTool('restore', ['--from', damaged.database, '--force'], serverEnv(target.url, targetCheckpointFile));
    // The load itself failed (not the check of the table of contents, which runs before anything is touched).
    expect([run.code, run.stderr]).toEqual([1, expect.stringMatching(/(pg_restore .*while reading|psql .*while loading the backup).*nothing was changed/s)]);
    expect(await withClient(target.url, async (c) => Number((await c.query('SELECT count(*) AS n FROM episodes')).rows[0].n))).toBe(episodesBefore);
    expect(readFileSync(targetCheckpointFile, 'utf8')).toBe(checkpointsBefore + '\n');
  });
});
