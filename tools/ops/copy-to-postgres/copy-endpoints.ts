import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig, type AppConfig } from '../../../src/config/app-config';
import { databaseKindOf, resolveDatabaseUrl } from '../../../src/config/database-url';
import { readSecretVariables } from '../../../src/config/secret-variables';
import { OperationRefused } from '../operation-refused';

/** What is copied where, each resolved as the server that owns it would resolve it. */
export interface CopyEndpoints {
  sourceFile: string;
  targetUrl: string;
  sourceCheckpointFile: string;
  targetCheckpointFile: string;
}

export interface EndpointFlags {
  from?: string;
  fromCheckpoints?: string;
  toCheckpoints?: string;
}

/**
 * The tool runs with either server's environment: the SQLite server's (DATABASE_URL a file:, the target in
 * TARGET_DATABASE_URL) or the PostgreSQL server's (DATABASE_URL postgresql://, the source in --from). The target's
 * URL holds a password, so it comes from the environment (or a file it names), never a flag, which anyone on the
 * machine can read in the process list. LEDGER_CHECKPOINT_FILE belongs to DATABASE_URL's server, so it is the
 * default of that side only.
 */
export function resolveCopyEndpoints(config: AppConfig, env: Record<string, string | undefined>, flags: EndpointFlags): CopyEndpoints {
  const sourceUrl = sourceUrlOf(config, flags.from);
  const sourceFile = sourceUrl.slice('file:'.length);
  if (!existsSync(sourceFile)) throw new OperationRefused(`there is no database at ${sourceFile}`);
  const targetUrl = targetUrlOf(config, env);
  const sourceCheckpointFile = resolve(
    flags.fromCheckpoints ?? (config.databaseUrl === sourceUrl ? config.ledgerCheckpointFile : `${sourceFile}.ledger-checkpoints`),
  );
  const targetCheckpointFile = resolve(
    flags.toCheckpoints ?? (config.databaseUrl === targetUrl ? config.ledgerCheckpointFile : postgresServerDefaultCheckpointFile(targetUrl)),
  );
  return { sourceFile, targetUrl, sourceCheckpointFile, targetCheckpointFile };
}

function sourceUrlOf(config: AppConfig, from: string | undefined): string {
  if (from === undefined) {
    if (config.databaseKind === 'sqlite') return config.databaseUrl;
    throw new OperationRefused('no source: give --from file:<the SQLite database> (DATABASE_URL names PostgreSQL)');
  }
  if (!from.startsWith('file:')) throw new OperationRefused(`--from must be a SQLite file URL (file:./data/supportdesk.db), got "${from.split(/[/@]/)[0]}…"`);
  return resolveDatabaseUrl(from);
}

function targetUrlOf(config: AppConfig, env: Record<string, string | undefined>): string {
  const secrets = readSecretVariables(env, ['TARGET_DATABASE_URL']);
  if (secrets.problems.length > 0) throw new ConfigError(secrets.problems);
  const given = secrets.values.TARGET_DATABASE_URL;
  if (given === undefined) {
    if (config.databaseKind === 'postgresql') return config.databaseUrl;
    throw new OperationRefused('no target: set TARGET_DATABASE_URL (or TARGET_DATABASE_URL_FILE) to postgresql://user:password@host:5432/database');
  }
  if (databaseKindOf(given.trim()) !== 'postgresql') throw new ConfigError(['TARGET_DATABASE_URL=(hidden): must be a PostgreSQL URL, postgresql://user:password@host:5432/database']);
  try {
    return resolveDatabaseUrl(given);
  } catch (error) {
    throw new ConfigError([(error as Error).message.replace(/DATABASE_URL/g, 'TARGET_DATABASE_URL')]);
  }
}

/**
 * The checkpoint file a PostgreSQL server on this target uses when LEDGER_CHECKPOINT_FILE is not set: asked of the
 * server's own configuration (app-config.ts), so the two cannot differ. The placeholder key only satisfies its check.
 */
function postgresServerDefaultCheckpointFile(targetUrl: string): string {
  return loadConfig({ DATABASE_URL: targetUrl, CHAIN_KEY: 'k'.repeat(32) }).ledgerCheckpointFile;
}
