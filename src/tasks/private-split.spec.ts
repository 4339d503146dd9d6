import { families, latestFamilies } from '../families';
import { loadConfig } from '../config/app-config';
import { GENERATOR_SEED_SPAN, PrivateSplitKeyNotHeldError, PrivateSplitKeys, privateSeed, privateSplitKeyIdOf, privateSplitKeyOf } from './private-split';

const SECRET = 'private-split-secret-0123456789abcdef';
const OTHER = 'another-private-split-secret-fedcba9876543210';

describe('the private split key', () => {
  it('has a stable id that names the key without being it, and differs between secrets and from the chain key id', () => {
    const key = privateSplitKeyOf(SECRET);
    expect(key.id).toMatch(/^ps_[0-9a-f]{12}$/);
    expect(privateSplitKeyOf(SECRET).id).toBe(key.id);
    // Pinned (computed apart, with Python's hmac): episodes record this id, so how it is computed can never change.
    expect(key.id).toBe('ps_6095040b15a1');
    expect(privateSplitKeyOf(OTHER).id).not.toBe(key.id);
    expect(key.id).not.toContain(SECRET.slice(0, 12));
  });
});

describe('the private seed', () => {
  const key = privateSplitKeyOf(SECRET);

  it('is the same for the same secret, task and seed, and pinned (stored private episodes are drawn again from it)', () => {
    expect(privateSeed(key, 'billing_duplicate_charge', 0)).toBe(privateSeed(privateSplitKeyOf(SECRET), 'billing_duplicate_charge', 0));
    expect([0, 5, 10].map((seed) => privateSeed(key, 'billing_duplicate_charge', seed))).toEqual([1689268078, 1566937162, 1900835282]);
  });

  it('differs with the secret, the task and the seed, lies in the generator seed range, and is never the public seed', () => {
    const seeds = Array.from({ length: 200 }, (_, n) => 5 * n);
    for (const taskId of ['billing_duplicate_charge', 'security_compromised_account']) {
      const derived = seeds.map((seed) => privateSeed(key, taskId, seed));
      expect(new Set(derived).size).toBe(seeds.length);
      expect(derived.every((d) => Number.isInteger(d) && d >= 0 && d < GENERATOR_SEED_SPAN)).toBe(true);
      expect(derived.filter((d, i) => d === seeds[i])).toEqual([]);
      const otherSecret = seeds.map((seed) => privateSeed(privateSplitKeyOf(OTHER), taskId, seed));
      expect(otherSecret.filter((d, i) => d === derived[i])).toEqual([]);
    }
    expect(privateSeed(key, 'billing_duplicate_charge', 5)).not.toBe(privateSeed(key, 'security_compromised_account', 5));
    // The seed range a reset accepts (MAX_SEED = 2^31 - 1).
    expect(GENERATOR_SEED_SPAN).toBe(2_147_483_648);
  });

  it('draws, for every family, an instance other than the public one for the seed, and another one under another secret', () => {
    for (const family of latestFamilies()) {
      for (const seed of [0, 5, 10]) {
        const publicTask = family.generate(seed);
        const privateTask = family.generate(privateSeed(key, family.id, seed));
        const otherTask = family.generate(privateSeed(privateSplitKeyOf(OTHER), family.id, seed));
        expect(family.fingerprint(privateTask)).not.toBe(family.fingerprint(publicTask));
        expect(family.fingerprint(otherTask)).not.toBe(family.fingerprint(privateTask));
        expect(family.generate(privateSeed(privateSplitKeyOf(SECRET), family.id, seed))).toEqual(privateTask);
      }
    }
  });

  it('leaves the generator versions of one family drawing the same private instance seed for seed (the version is not mixed in)', () => {
    // Billing's versions 1 and 2 draw the same instance seed for seed (2 only declares the lexicon; 3 draws other cases).
    const billing = families().filter((f) => f.id === 'billing_duplicate_charge' && f.generatorVersion <= 2);
    expect(billing.length).toBeGreaterThan(1);
    const drawn = billing.map((f) => f.fingerprint(f.generate(privateSeed(key, f.id, 15))));
    expect(new Set(drawn).size).toBe(1);
  });
});

describe('PrivateSplitKeys', () => {
  const retiredFile = (lines: string[]) => {
    const { mkdtempSync, writeFileSync } = require('node:fs') as typeof import('node:fs');
    const { join } = require('node:path') as typeof import('node:path');
    const { tmpdir } = require('node:os') as typeof import('node:os');
    const path = join(mkdtempSync(join(tmpdir(), 'private-split-')), 'retired');
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };

  it('holds the current key and the retired ones by id, and refuses a key it does not hold with an error naming its id', () => {
    const keys = new PrivateSplitKeys(loadConfig({ PRIVATE_SPLIT_KEY: OTHER, PRIVATE_SPLIT_RETIRED_KEYS_FILE: retiredFile([SECRET]) }));
    expect(keys.current?.id).toBe(privateSplitKeyOf(OTHER).id);
    expect(keys.require(privateSplitKeyOf(SECRET).id).secret).toBe(SECRET);
    expect(() => keys.require('ps_000000000000')).toThrow(PrivateSplitKeyNotHeldError);
    expect(() => keys.require('ps_000000000000')).toThrow(/key ps_000000000000, which this server does not hold.*PRIVATE_SPLIT_RETIRED_KEYS_FILE/);
    expect(new PrivateSplitKeys(loadConfig({})).current).toBeNull();
  });

  it('an episode names its key only when private; a private row without a key id names none that exists', () => {
    expect(privateSplitKeyIdOf({ splitSource: 'public', splitKeyId: null })).toBeNull();
    expect(privateSplitKeyIdOf({ splitSource: 'private', splitKeyId: 'ps_0123456789ab' })).toBe('ps_0123456789ab');
    expect(privateSplitKeyIdOf({ splitSource: 'private', splitKeyId: null })).toBe('(none)');
  });
});
