import { createHash, createHmac } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ConflictError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';

/*
 * The private test split (docs/evaluation.md, "The private test split"). The generators are public code, so a test
 * seed's instance, and so its answers, can be drawn by anyone offline. A private-split episode records the same
 * public test seed, but its family is fed a seed derived from it under a secret only the server holds: HMAC-SHA256
 * over a domain-separated task id and seed, reduced to the seeds a family draws from. Without the secret the
 * recorded seed tells nothing about the instance; the derived seed is computed when the instance is drawn and kept
 * nowhere (not in the state, the database, a response or the log).
 */

/** A private-split secret with the id episodes record instead of it. */
export interface PrivateSplitKey {
  /** `ps_` + 12 hex of a domain-separated SHA-256 of the secret: names the key without revealing it. */
  id: string;
  secret: string;
}

/** Every seed a reset accepts (0 … 2^31 − 1, the reset DTO's MAX_SEED): the range derived seeds are reduced to. */
export const GENERATOR_SEED_SPAN = 2 ** 31;

export function privateSplitKeyOf(secret: string): PrivateSplitKey {
  const digest = createHash('sha256').update(`supportdesk/private-split/key-id/v1\n${secret}`, 'utf8').digest('hex');
  return { id: `ps_${digest.slice(0, 12)}`, secret };
}

/**
 * The seed a family draws a private-split instance from: HMAC-SHA256(secret, "supportdesk/private-split/v1", task
 * id, public seed), its first 48 bits reduced modulo 2^31 (which divides 2^48: no bias). The task id keeps two
 * families' private instances of one seed unrelated; the generator version is left out on purpose, so a family's
 * next version draws the same private instance seed for seed, as its public versions do.
 */
export function privateSeed(key: PrivateSplitKey, taskId: string, seed: number): number {
  const mac = createHmac('sha256', key.secret).update(`supportdesk/private-split/v1\n${taskId}\n${seed}`, 'utf8').digest();
  return mac.readUIntBE(0, 6) % GENERATOR_SEED_SPAN;
}

/** An episode drawn from the private split with a key this server no longer holds: it cannot be drawn again. */
export class PrivateSplitKeyNotHeldError extends ConflictError {
  constructor(readonly keyId: string) {
    super(
      `the episode was drawn from the private test split with key ${keyId}, which this server does not hold: its instance cannot be drawn ` +
        'again (add that key to PRIVATE_SPLIT_RETIRED_KEYS_FILE)',
    );
  }
}

/**
 * The private split's keys: the current one (new private-split episodes; null when PRIVATE_SPLIT_KEY is unset) and
 * the retired ones (PRIVATE_SPLIT_RETIRED_KEYS_FILE) that older private episodes were drawn with. Configuration, not
 * data: every replica on one database reads the same variables, and nothing of a secret is ever stored.
 */
@Injectable()
export class PrivateSplitKeys {
  readonly current: PrivateSplitKey | null;
  private readonly known: Map<string, PrivateSplitKey>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.current = config.privateSplitKey === null ? null : privateSplitKeyOf(config.privateSplitKey);
    const all = [...(this.current ? [this.current] : []), ...config.privateSplitRetiredKeys.map(privateSplitKeyOf)];
    this.known = new Map(all.map((key) => [key.id, key]));
  }

  /** The key with this id; PrivateSplitKeyNotHeldError when this server does not hold it. */
  require(id: string): PrivateSplitKey {
    const key = this.known.get(id);
    if (!key) throw new PrivateSplitKeyNotHeldError(id);
    return key;
  }
}

/**
 * The private-split key an episode's instance is drawn with: null for a public one. A row claiming "private" without
 * a key id names a key no server holds, so it is refused rather than drawn from the public seed.
 */
export function privateSplitKeyIdOf(episode: { splitSource: string; splitKeyId: string | null }): string | null {
  return episode.splitSource === 'public' ? null : (episode.splitKeyId ?? '(none)');
}
