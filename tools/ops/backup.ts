import { existsSync } from 'node:fs';
import { loadConfig } from '../../src/config/app-config';
import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { BACKUP_COMMAND } from './backup.command';
import { backupDatabase } from './database-backup';
import { describeBackup, exitWithFailure, progressOnTerminal } from './ops-output';

/** `npm run backup`: see backup.command.ts, or `npm run backup -- --help`. */
async function main(): Promise<void> {
  const { values } = readCommandLine(BACKUP_COMMAND);
  if (values.to === undefined) refuseCommandLine(BACKUP_COMMAND, 'missing --to <file>: where to write the backup');
  // The server's own reading of its environment: the same database and checkpoint file, whatever the working folder.
  const config = loadConfig(process.env);
  const database = config.databaseUrl.slice('file:'.length);
  const report = await backupDatabase({
    database,
    checkpointFile: config.ledgerCheckpointFile,
    to: values.to,
    force: values.force,
    stepPages: values['step-pages'],
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
