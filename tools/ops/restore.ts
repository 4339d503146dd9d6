import { resolve } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { databaseKindOf } from '../../src/config/database-url';
import { readCommandLine, refuseCommandLine } from '../cli/command-line';
import { restoreDatabase } from './database-restore';
import { keysHeldBy, missingKeys } from './keys-used';
import { describeRestore, exitWithFailure } from './ops-output';
import { describePostgresRestore } from './postgres-output';
import { restorePostgres } from './postgres-restore';
import { RESTORE_COMMAND } from './restore.command';

/** `npm run restore`: see restore.command.ts, or `npm run restore -- --help`. */
async function main(): Promise<void> {
  const { values } = readCommandLine(RESTORE_COMMAND);
  if (values.from === undefined) refuseCommandLine(RESTORE_COMMAND, 'missing --from <file>: the backup to restore');
  const config = loadConfig(process.env);
  if (databaseKindOf(config.databaseUrl) === 'postgresql') {
    // The checkpoint file belongs to the database DATABASE_URL names; another database is restored with its own
    // DATABASE_URL and LEDGER_CHECKPOINT_FILE, as its server would run.
    if (values.to !== undefined) refuseCommandLine(RESTORE_COMMAND, "--to is for SQLite: on PostgreSQL the restore goes into DATABASE_URL's database (set DATABASE_URL and LEDGER_CHECKPOINT_FILE to restore elsewhere)");
    const report = await restorePostgres({ from: values.from, databaseUrl: config.databaseUrl, checkpointFile: config.ledgerCheckpointFile, force: values.force });
    const held = keysHeldBy(config, null);
    for (const line of describePostgresRestore(report, held)) console.error(line);
    console.log(JSON.stringify({ ...report, missingKeys: missingKeys(report.keys, held) }));
    return;
  }
  const served = config.databaseUrl.slice('file:'.length);
  const target = values.to === undefined ? served : resolve(values.to);
  // LEDGER_CHECKPOINT_FILE belongs to the server's database: restoring a copy elsewhere must not move it aside.
  const checkpointFile = target === served ? config.ledgerCheckpointFile : `${target}.ledger-checkpoints`;
  const report = await restoreDatabase({ from: values.from, to: target, checkpointFile, force: values.force });
  const held = keysHeldBy(config, target);
  for (const line of describeRestore(report, held)) console.error(line);
  console.log(JSON.stringify({ ...report, missingKeys: missingKeys(report.keys, held) }));
}

main().catch(exitWithFailure('restore'));
