import { existsSync } from 'node:fs';
import { loadConfig } from '../../src/config/app-config';
import { databaseKindOf } from '../../src/config/database-url';
import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { BACKUP_COMMAND } from './backup.command';
import { DEFAULT_STEP_PAGES } from './backup-defaults';
import { backupDatabase } from './database-backup';
import { describeBackup, exitWithFailure, progressOnTerminal } from './ops-output';
import { backupPostgres } from './postgres-backup';
import { describePostgresBackup } from './postgres-output';

/** `npm run backup`: see backup.command.ts, or `npm run backup -- --help`. */
async function main(): Promise<void> {
  const { values } = readCommandLine(BACKUP_COMMAND);
  if (values.to === undefined) refuseCommandLine(BACKUP_COMMAND, 'missing --to <file>: where to write the backup');
  // The server's own reading of its environment: the same database and checkpoint file, whatever the working folder.
  const config = loadConfig(process.env);
  if (databaseKindOf(config.databaseUrl) === 'postgresql') {
    // Refused rather than ignored: whoever gives them expects something pg_dump does not do.
    if (values['step-pages'] !== undefined) refuseCommandLine(BACKUP_COMMAND, '--step-pages is for SQLite (DATABASE_URL is PostgreSQL: pg_dump reads one snapshot)');
    if (values['full-check']) refuseCommandLine(BACKUP_COMMAND, '--full-check is for SQLite (on PostgreSQL pg_restore reads the whole dump back every time)');
    const report = await backupPostgres({ databaseUrl: config.databaseUrl, checkpointFile: config.ledgerCheckpointFile, to: values.to, force: values.force });
    for (const line of describePostgresBackup(report)) console.error(line);
    console.log(JSON.stringify(report));
    return;
  }
  const database = config.databaseUrl.slice('file:'.length);
  const report = await backupDatabase({
    database,
    checkpointFile: config.ledgerCheckpointFile,
    to: values.to,
    force: values.force,
    stepPages: values['step-pages'] ?? DEFAULT_STEP_PAGES,
    fullCheck: values['full-check'],
    busyTimeoutMs: config.sqliteBusyTimeoutMs,
    onProgress: progressOnTerminal('backup'),
  });
  for (const line of describeBackup(report)) console.error(line);
  if (config.chainKey === null && existsSync(`${database}.chain-key`)) {
    console.error(
      `note: no CHAIN_KEY: the chain key is the file ${database}.chain-key, which is not in the backup; keep a copy of it ` +
        'apart from the backups (a restore needs it to verify anything)',
    );
  }
  console.log(JSON.stringify(report));
}

main().catch(exitWithFailure('backup'));
