import { existsSync, readFileSync } from 'node:fs';
import type { AppConfig } from '../../../src/config/app-config';
import { keysHeldBy, keysUsedBy, missingKeys, type KeyIds } from '../keys-used';
import { OperationRefused } from '../operation-refused';
import type { SqliteSource } from './sqlite-source';

/**
 * The keys the copy is verified with, which the PostgreSQL server must be given. Episodes' chains and the ledgers
 * are MACed with the chain key and copied as they are, so the PostgreSQL server must hold the same key (it requires
 * CHAIN_KEY: the key never lives in the database it protects), and the retired ones older data was made with. A
 * SQLite server in open mode without CHAIN_KEY kept its key in `<db>.chain-key`: that file's key is then the one.
 */
export interface CopyKeys {
  /** The current chain key's secret, or null when there is none to hold (then the copy is refused). */
  current: string | null;
  /** Where it came from, for the summary: CHAIN_KEY, or the key file's path. */
  currentFrom: string;
  held: KeyIds;
}

export function resolveCopyKeys(config: AppConfig, sourceFile: string): CopyKeys {
  const keyFile = `${sourceFile}.chain-key`;
  const fromFile = config.chainKey === null && existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : null;
  return {
    current: config.chainKey ?? fromFile,
    currentFrom: config.chainKey !== null ? 'CHAIN_KEY' : keyFile,
    held: keysHeldBy(config, sourceFile),
  };
}

/** Refuses, before anything is copied, data made with a key this run does not hold: the copy would not verify. */
export function checkKeysHeld(source: SqliteSource, keys: CopyKeys): void {
  if (keys.current === null) {
    throw new OperationRefused(
      `no chain key: set CHAIN_KEY (or CHAIN_KEY_FILE) to the key the SQLite server used, or keep its ${source.file}.chain-key beside it (open mode); the PostgreSQL server needs it too; nothing was changed`,
    );
  }
  const missing = missingKeys(keysUsedBy(source.db), keys.held);
  const problems = [
    ...(missing.chain.length > 0
      ? [`chain key(s) ${missing.chain.join(', ')} (CHAIN_KEY, CHAIN_RETIRED_KEYS_FILE, or in open mode ${source.file}.chain-key)`]
      : []),
    ...(missing.privateSplit.length > 0 ? [`private-split key(s) ${missing.privateSplit.join(', ')} (PRIVATE_SPLIT_KEY or PRIVATE_SPLIT_RETIRED_KEYS_FILE)`] : []),
  ];
  if (problems.length > 0) {
    throw new OperationRefused(`the data was made with keys this run does not hold: ${problems.join('; ')}; without them the copy cannot be verified; nothing was changed`);
  }
}
