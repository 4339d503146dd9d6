import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { chainKeyOf, type ChainKey } from './hash-chain';

/**
 * The keys of the hash chain: the current one (new episodes, and the rows added to sealed legacy episodes) and
 * retired ones (CHAIN_RETIRED_KEYS_FILE) that older episodes still verify with. Without CHAIN_KEY (open mode only:
 * a shared deployment must set it) the key is kept in a file beside the database, created with mode 0600; anyone
 * who can read the data folder can then read it too, so it protects less than a key held elsewhere.
 */
@Injectable()
export class ChainKeys {
  private readonly logger = new Logger(ChainKeys.name);
  readonly current: ChainKey;
  private readonly known: Map<string, ChainKey>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.current = chainKeyOf(config.chainKey ?? this.keyFileSecret(config));
    this.known = new Map([this.current, ...config.chainRetiredKeys.map(chainKeyOf)].map((key) => [key.id, key]));
  }

  /** The key with this id, or null when this server does not hold it. */
  byId(id: string): ChainKey | null {
    return this.known.get(id) ?? null;
  }

  private keyFileSecret(config: AppConfig): string {
    const file = `${config.databaseUrl.slice('file:'.length)}.chain-key`;
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const secret = randomBytes(32).toString('hex');
    try {
      writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      this.logger.warn(`no CHAIN_KEY: generated the hash chain's key in ${file} (mode 0600); keep it with the database`);
      return secret;
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
      throw error;
    }
  }
}
