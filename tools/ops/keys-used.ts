import { existsSync, readFileSync } from 'node:fs';
import type BetterSqlite3 from 'better-sqlite3';
import type { AppConfig } from '../../src/config/app-config';
import { chainKeyOf } from '../../src/episodes/hash-chain';
import { privateSplitKeyOf } from '../../src/tasks/private-split';
import { hasColumn } from './database-point';

/*
 * A restored file is only as good as the secrets beside it: episodes' chains and the ledgers are MACed with the
 * chain key (CHAIN_KEY, retired ones in CHAIN_RETIRED_KEYS_FILE), private-split instances are drawn again with the
 * private split's key (PRIVATE_SPLIT_KEY, PRIVATE_SPLIT_RETIRED_KEYS_FILE). The database names every key by its id
 * only; these compare those ids with the keys an environment holds, without ever printing a secret.
 */

export interface KeyIds {
  chain: string[];
  privateSplit: string[];
}

/** The ids of the keys the database's episodes, seals and ledgers were made with. */
export function keysUsedBy(db: BetterSqlite3.Database): KeyIds {
  const ids = (table: string, column: string) =>
    hasColumn(db, table, column)
      ? (db.prepare(`SELECT DISTINCT ${column} AS id FROM ${table} WHERE ${column} IS NOT NULL`).all() as { id: string }[]).map((row) => row.id)
      : [];
  const chain = [...ids('episodes', 'chain_key_id'), ...ids('legacy_chain_seals', 'key_id'), ...ids('ledger_entries', 'key_id'), ...ids('action_log', 'ledger_key_id')];
  return { chain: [...new Set(chain)].sort(), privateSplit: ids('episodes', 'split_key_id').sort() };
}

/**
 * The ids of the keys a server with this configuration holds. Without CHAIN_KEY (open mode) the server keeps its
 * key in `<database>.chain-key`, and makes a new one when that file is missing; on PostgreSQL (`databaseFile`
 * null) CHAIN_KEY is required.
 */
export function keysHeldBy(config: AppConfig, databaseFile: string | null): KeyIds {
  const keyFile = databaseFile === null ? null : `${databaseFile}.chain-key`;
  const current = config.chainKey ?? (keyFile !== null && existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : null);
  const chain = [...(current ? [current] : []), ...config.chainRetiredKeys].map((secret) => chainKeyOf(secret).id);
  const privateSplit = [...(config.privateSplitKey ? [config.privateSplitKey] : []), ...config.privateSplitRetiredKeys].map((s) => privateSplitKeyOf(s).id);
  return { chain: [...new Set(chain)].sort(), privateSplit: [...new Set(privateSplit)].sort() };
}

export function missingKeys(used: KeyIds, held: KeyIds): KeyIds {
  return { chain: used.chain.filter((id) => !held.chain.includes(id)), privateSplit: used.privateSplit.filter((id) => !held.privateSplit.includes(id)) };
}
