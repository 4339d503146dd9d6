import { loadConfig } from '../../src/config/app-config';
import { readCommandLine } from '../cli/command-line';
import { COPY_TO_POSTGRES_COMMAND } from './copy-to-postgres.command';
import { copySqliteToPostgres } from './copy-to-postgres/copy-database';
import { resolveCopyEndpoints } from './copy-to-postgres/copy-endpoints';
import { resolveCopyKeys } from './copy-to-postgres/copy-keys';
import { describeCopy, describeVerification } from './copy-to-postgres/copy-output';
import { verifyTarget } from './copy-to-postgres/target-verification';
import { exitWithFailure } from './ops-output';

/** `npm run copy-to-postgres`: see copy-to-postgres.command.ts, or `npm run copy-to-postgres -- --help`. */
async function main(): Promise<void> {
  const { values } = readCommandLine(COPY_TO_POSTGRES_COMMAND);
  // The server's own reading of its environment (either server's: copy-endpoints.ts says which side it names).
  const config = loadConfig(process.env);
  const endpoints = resolveCopyEndpoints(config, process.env, {
    from: values.from,
    fromCheckpoints: values['from-checkpoints'],
    toCheckpoints: values['to-checkpoints'],
  });
  const keys = resolveCopyKeys(config, endpoints.sourceFile);
  const copy = await copySqliteToPostgres({
    ...endpoints,
    keys,
    onProgress: process.stderr.isTTY ? (line) => console.error(line) : undefined,
  });
  for (const line of describeCopy(copy, keys.currentFrom)) console.error(line);
  const verification = values['skip-verify']
    ? null
    : await verifyTarget({
        targetUrl: endpoints.targetUrl,
        chainKey: keys.current!,
        checkpointFile: endpoints.targetCheckpointFile,
        env: process.env,
        concurrency: values.concurrency,
      });
  for (const line of describeVerification(verification)) console.error(line);
  console.log(JSON.stringify({ ...copy, verification, ok: verification?.ok ?? true }));
  if (verification && !verification.ok) process.exitCode = 1;
}

main().catch(exitWithFailure('copy-to-postgres'));
