import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'sdk_';
/** Characters of the key kept in clear so people can tell their keys apart. */
const VISIBLE_LENGTH = 12;

/** 256 random bits, base64url, with a recognisable prefix (so secret scanners and people can spot one). */
export function generateApiKey(): string {
  return `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/**
 * Keys are 256-bit random, so a single SHA-256 is enough to make the stored value useless to an attacker
 * (no dictionary to try); a slow password hash would only slow down every request.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function visiblePrefix(key: string): string {
  return key.slice(0, VISIBLE_LENGTH);
}

/** Constant-time comparison for the admin key from configuration. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
