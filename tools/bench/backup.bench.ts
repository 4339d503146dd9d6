import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migrateDatabase } from '../../src/database/migrate';
import { readCommandLine } from '../cli/command-line';
import { backupDatabase, type BackupReport } from '../ops/database-backup';
import { restoreDatabase, type RestoreReport } from '../ops/database-restore';
import { generateAuditDataset } from './audit-dataset';
import { BACKUP_BENCH_COMMAND } from './bench.commands';

/*
 * `npm run bench:backup`: npm run backup's and npm run restore's work (the same functions) on a database of
 * BENCH_BACKUP_MB megabytes of episodes and action rows (the audit benchmark's synthetic rows, generated once into
 * data/bench/backup-<MB>.db; delete it to regenerate). BENCH_RUNS backups and restores into a scratch folder, which
 * is removed at the end; medians reported, with the backup's parts (copy, check, checksum) and one backup checked
 * with integrity_check instead of quick_check.
 */

const TARGET_MB = Number(process.env.BENCH_BACKUP_MB ?? 1024);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const ACTIONS_PER_EPISODE = 10;
const TENANTS = ['big-lab', 'lab-b', 'lab-c', 'lab-d'];
/** Episodes of the sample that measures how many bytes an episode takes. */
const SAMPLE_EPISODES = 2_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const mb = (bytes: number) => bytes / 1e6;

/** A migrated empty database, then episodes enough for TARGET_MB, sized from a sample of the same rows. */
function generate(file: string): void {
  const empty = `${file}.empty`;
  migrateDatabase(`file:${empty}`);
  const sample = `${file}.sample`;
  copyFileSync(empty, sample);
  generateAuditDataset(sample, { episodes: SAMPLE_EPISODES, actionsPerEpisode: ACTIONS_PER_EPISODE, tenants: TENANTS });
  const perEpisode = (statSync(sample).size - statSync(empty).size) / SAMPLE_EPISODES;
  const episodes = Math.ceil((TARGET_MB * 1e6) / perEpisode);
  console.log(`generating ${episodes.toLocaleString('en-US')} episodes (${Math.round(perEpisode)} bytes each with ${ACTIONS_PER_EPISODE} action rows) in ${file} ...`);
  const started = performance.now();
  copyFileSync(empty, file);
  generateAuditDataset(file, { episodes, actionsPerEpisode: ACTIONS_PER_EPISODE, tenants: TENANTS });
  console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const scratch of [empty, sample]) rmSync(scratch, { force: true });
}

async function main(): Promise<void> {
  readCommandLine(BACKUP_BENCH_COMMAND);
  const dir = resolve('data', 'bench');
  mkdirSync(dir, { recursive: true });
  const source = join(dir, `backup-${TARGET_MB}.db`);
  if (!existsSync(source)) generate(source);
  const bytes = statSync(source).size;
  console.log(`database: ${mb(bytes).toFixed(1)} MB (${source})`);

  const scratch = mkdtempSync(join(tmpdir(), 'supportdesk-bench-backup-'));
  try {
    const to = join(scratch, 'backup.db');
    const checkpointFile = join(scratch, 'none.ledger-checkpoints');
    const backups: BackupReport[] = [];
    for (let run = 0; run < RUNS; run++) {
      backups.push(await backupDatabase({ database: source, checkpointFile, to, force: true }));
      console.log(`backup ${run + 1}: ${JSON.stringify(backups.at(-1)!.seconds)}`);
    }
    const full = await backupDatabase({ database: source, checkpointFile, to, force: true, fullCheck: true });
    console.log(`backup with integrity_check: ${JSON.stringify(full.seconds)}`);

    const restores: RestoreReport[] = [];
    const target = join(scratch, 'restored', 'supportdesk.db');
    for (let run = 0; run < RUNS; run++) {
      restores.push(await restoreDatabase({ from: to, to: target, checkpointFile: `${target}.ledger-checkpoints`, force: true }));
      console.log(`restore ${run + 1}: ${restores.at(-1)!.seconds} s`);
    }

    const part = (pick: (r: BackupReport) => number) => median(backups.map(pick));
    const figures = {
      megabytes: Number(mb(bytes).toFixed(1)),
      runs: RUNS,
      backup: {
        seconds: part((r) => r.seconds.total),
        copySeconds: part((r) => r.seconds.copy),
        quickCheckSeconds: part((r) => r.seconds.check),
        checksumSeconds: part((r) => r.seconds.checksum),
        megabytesPerSecond: Number((mb(bytes) / part((r) => r.seconds.total)).toFixed(0)),
        copyMegabytesPerSecond: Number((mb(bytes) / part((r) => r.seconds.copy)).toFixed(0)),
        steps: backups[0].steps,
      },
      backupWithIntegrityCheck: { seconds: full.seconds.total, integrityCheckSeconds: full.seconds.check },
      restore: {
        seconds: median(restores.map((r) => r.seconds)),
        megabytesPerSecond: Number((mb(bytes) / median(restores.map((r) => r.seconds))).toFixed(0)),
      },
    };
    console.log(`\n${'figure'.padEnd(44)} ${'seconds'.padStart(8)} ${'MB/s'.padStart(6)}`);
    const row = (name: string, seconds: number, rate?: number) =>
      console.log(`${name.padEnd(44)} ${seconds.toFixed(2).padStart(8)} ${(rate === undefined ? '' : String(rate)).padStart(6)}`);
    row(`backup, median of ${RUNS} (all of it)`, figures.backup.seconds, figures.backup.megabytesPerSecond);
    row('  copy through the backup API', figures.backup.copySeconds, figures.backup.copyMegabytesPerSecond);
    row('  quick_check', figures.backup.quickCheckSeconds);
    row('  sha256 and renames', figures.backup.checksumSeconds);
    row('backup with integrity_check (one run)', figures.backupWithIntegrityCheck.seconds);
    row('  integrity_check', figures.backupWithIntegrityCheck.integrityCheckSeconds);
    row(`restore, median of ${RUNS}`, figures.restore.seconds, figures.restore.megabytesPerSecond);
    writeFileSync(join(dir, 'backup.json'), `${JSON.stringify(figures, null, 2)}\n`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
