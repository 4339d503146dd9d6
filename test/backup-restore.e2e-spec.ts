import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import request from 'supertest';
import { migrateIfPending, pendingMigrations } from '../src/database/migrate';
import { LedgerCheckpoints } from '../src/episodes';
import { chainKeyOf } from '../src/episodes/hash-chain';
import { backupDatabase, backupFiles, type BackupReport } from '../tools/ops/database-backup';
import { restoreDatabase } from '../tools/ops/database-restore';
import { ledgerReports, steppingClient, until, type Ack } from './support/stepping-clients';
import { ADMIN_KEY, CHAIN_KEY, asAdmin, bearer, tenantWithKey } from './support/tenants';
import { freshDatabaseUrl, startTestApp } from './support/test-app';

/*
 * An online backup taken while clients reset and step episodes, restored into a fresh folder and served again: every
 * step acknowledged before the backup began is there, every episode and both tenant ledgers verify, against the
 * checkpoint the backup carries (docs/backup.md). A backup that does not match its checksum is refused.
 */

type App = Awaited<ReturnType<typeof startTestApp>>;

/** Checkpoints are written by the test, at the moments it chooses (and by the server at shutdown). */
const env = { ADMIN_API_KEY: ADMIN_KEY, CHAIN_KEY, LEDGER_CHECKPOINT_INTERVAL_MS: '3600000' };
const fileOf = (url: string) => url.slice('file:'.length);
const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');


describe('backup under load, then restore', () => {
  const liveUrl = freshDatabaseUrl();
  const backupDir = mkdtempSync(join(tmpdir(), 'supportdesk-backup-'));
  const backup = backupFiles(join(backupDir, 'supportdesk.db'));
  let ackedBefore: Ack[] = [];
  let ackedDuringBackup = 0;
  let report: BackupReport;
  let checkpointBeforeBackup = 0;
  const liveCheckpointFile = `${fileOf(liveUrl)}.ledger-checkpoints`;

  beforeAll(async () => {
    const live = await startTestApp(liveUrl, env);
    const acks: Ack[] = [];
    let stop = false;
    let clients: Promise<void>[] = [];
    try {
      const { key } = await tenantWithKey(live.http, 'lab');
      clients = [key, key, key, null, null, null].map((k) => steppingClient(live, k, acks, () => stop));
      await until(() => acks.length >= 20);
      const checkpoints = live.app.get(LedgerCheckpoints);
      checkpointBeforeBackup = (await checkpoints.write()).find((c) => c.tenantId !== 'public')!.seq;
      await until(() => acks.length >= 30);

      ackedBefore = [...acks];
      // backupDatabase takes its snapshot before its first await: nothing acknowledged after this line is in it.
      report = await backupDatabase({ database: fileOf(liveUrl), checkpointFile: liveCheckpointFile, to: backup.database, stepPages: 1 });
      ackedDuringBackup = acks.length - ackedBefore.length;

      // The server goes on: its ledgers move past the backup, and a checkpoint of that is written outside the database.
      await until(() => acks.length >= ackedBefore.length + ackedDuringBackup + 10);
      await checkpoints.write();
      await expect(
        restoreDatabase({ from: backup.database, to: fileOf(liveUrl), checkpointFile: join(backupDir, 'unused'), force: true }),
      ).rejects.toThrow(/open in another process \(a running server\?\)/);
    } finally {
      stop = true;
      await Promise.all(clients);
      await live.app.close();
    }
  });

  it('copied the database in steps while the clients were being served, and summed it in sha256sum format', async () => {
    expect(report.steps).toBeGreaterThan(10);
    expect(ackedDuringBackup).toBeGreaterThan(0);
    const [line] = readFileSync(backup.checksumFile, 'utf8').split('\n');
    expect(line).toBe(`${sha256(backup.database)}  supportdesk.db`);
    expect(report.sha256).toBe(sha256(backup.database));
    expect(report.point.migration?.name).toMatch(/^\d{14}_/);
    expect(report.point.ledgers.map((l) => l.tenant).sort()).toEqual(['lab', 'public']);
    // A second backup under the same name is refused without --force.
    await expect(backupDatabase({ database: fileOf(liveUrl), checkpointFile: liveCheckpointFile, to: backup.database })).rejects.toThrow(/exists; give --force/);
  });

  it('refuses a backup one byte of which changed, and touches nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'supportdesk-corrupt-'));
    const corrupt = backupFiles(join(dir, 'supportdesk.db'));
    copyFileSync(backup.checksumFile, corrupt.checksumFile);
    copyFileSync(backup.checkpointsFile, corrupt.checkpointsFile);
    const bytes = readFileSync(backup.database);
    bytes[Math.floor(bytes.length / 2)] ^= 0x01;
    writeFileSync(corrupt.database, bytes);
    const target = join(dir, 'restored', 'supportdesk.db');
    await expect(restoreDatabase({ from: corrupt.database, to: target, checkpointFile: `${target}.ledger-checkpoints` })).rejects.toThrow(
      /does not match its checksum/,
    );
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.ledger-checkpoints`)).toBe(false);
  });

  it('restored with its checkpoints, serves every acknowledged step, and every episode and ledger verifies', async () => {
    // The server's folder after its database was lost: the checkpoint file (elsewhere in production) outlived it.
    const dir = mkdtempSync(join(tmpdir(), 'supportdesk-restore-'));
    const target = join(dir, 'supportdesk.db');
    const checkpointFile = `${target}.ledger-checkpoints`;
    copyFileSync(liveCheckpointFile, checkpointFile);

    const restored = await restoreDatabase({ from: backup.database, to: target, checkpointFile });
    expect(restored.point).toEqual(report.point);
    expect(restored.sha256).toBe(report.sha256);
    expect(restored.keys.chain).toEqual([chainKeyOf(CHAIN_KEY).id]);
    // The old checkpoint file is kept, and says how far the ledgers had got past the backup.
    expect(readFileSync(restored.checkpoints.movedAside!, 'utf8')).toBe(readFileSync(liveCheckpointFile, 'utf8'));
    const lab = report.point.ledgers.find((l) => l.tenant === 'lab')!;
    expect(restored.checkpoints.rolledBack).toContainEqual(expect.objectContaining({ tenant: 'lab', restoredSeq: lab.seq }));
    await expect(restoreDatabase({ from: backup.database, to: target, checkpointFile })).rejects.toThrow(/exists; stop the server and give --force/);
    // The server migrates at start; the backup is of this release, so nothing is pending.
    expect(await migrateIfPending(`file:${target}`, 1000, () => undefined)).toEqual([]);

    const app = await startTestApp(`file:${target}`, env);
    try {
      const byEpisode = new Map<string, Ack[]>();
      for (const ack of ackedBefore) byEpisode.set(ack.episodeId, [...(byEpisode.get(ack.episodeId) ?? []), ack]);
      for (const [episodeId, acks] of byEpisode) {
        const state = await request(app.http).get(`/state/${episodeId}`).set(acks[0].key ? bearer(acks[0].key) : {}).expect(200);
        const steps = new Set((state.body.actions as { step: number }[]).map((a) => a.step));
        expect(acks.filter((ack) => !steps.has(ack.step))).toEqual([]);
      }

      const db = new BetterSqlite3(target, { readonly: true });
      const episodes = db.prepare('SELECT id FROM episodes').all() as { id: string }[];
      db.close();
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
  });

  it('restored without its checkpoints, beside the newer checkpoint file, the ledger reads as cut: why the restore replaces the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'supportdesk-naive-'));
    const target = join(dir, 'supportdesk.db');
    copyFileSync(backup.database, target);
    copyFileSync(liveCheckpointFile, `${target}.ledger-checkpoints`);
    const app = await startTestApp(`file:${target}`, env);
    try {
      const lab = (await ledgerReports(app)).find((r) => r.tenant === 'lab')!;
      expect(lab).toMatchObject({ ledger_ok: true, checkpoint_ok: false });
      expect(lab.problems).toEqual([expect.stringMatching(/its tail was cut/)]);
    } finally {
      await app.app.close();
    }
  });
});

it("a backup of an earlier release's database restores as it was, naming the migrations the server applies at start", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-old-release-'));
  const old = join(dir, 'release.db');
  const db = new BetterSqlite3(old);
  db.exec(readFileSync(join(__dirname, 'fixtures', 'upgrade', 'release-0.1.sql'), 'utf8'));
  db.close();
  const backup = await backupDatabase({ database: old, checkpointFile: `${old}.ledger-checkpoints`, to: join(dir, 'backups', 'release.db') });
  // Release 0.1 had no ledger: its tenants' heads are 0, and there is no checkpoint to carry.
  expect(backup.point.ledgers.map((l) => l.seq)).toEqual(backup.point.ledgers.map(() => 0));
  expect(backup.checkpoints.kept).toBe(0);
  const restored = await restoreDatabase({ from: backup.file, to: join(dir, 'restored.db'), checkpointFile: join(dir, 'restored.db.ledger-checkpoints') });
  expect(restored.pendingMigrations).toEqual(pendingMigrations(`file:${old}`));
  expect(restored.pendingMigrations.length).toBeGreaterThan(0);
  expect(restored.point).toEqual(backup.point);
});
