import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import type { Principal, TenantPrincipal } from '../access/principal';
import { Clock } from '../common/clock';
import { UnauthenticatedError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { sameSecret, hashApiKey } from '../tenants/api-key-secret';
import { PUBLIC_TENANT } from '../tenants/tenant.constants';
import { KeyRevocations } from '../tenants/key-revocations';
import { TenantRepository } from '../tenants/tenant.repository';

/** last_used_at is written at most this often per key, so busy keys do not add a write to every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
/**
 * How long a key's "still valid" answer is reused: for messages of open sessions, and for requests presenting the
 * key (its lookup by hash). Revocations in this process are seen at once (KeyRevocations); those made by another
 * process on the same file within this time.
 */
const VALIDITY_CHECK_MS = 2_000;
/** Keys whose lookup is remembered at once; past it the oldest is forgotten (an attacker's keys are never remembered: only valid ones are). */
const REMEMBERED_KEYS = 10_000;

/**
 * Turns the credentials of a request (HTTP, a WebSocket upgrade) into a principal. Wrong and revoked keys are a
 * 401, never the public tenant; no key is the public tenant ("anonymous") unless REQUIRE_API_KEY is on.
 */
@Injectable()
export class Authenticator {
  private readonly lastTouched = new Map<string, number>();
  private readonly validity = new Map<string, { valid: boolean; at: number }>();
  /** Valid keys by hash, as last looked up: a busy key costs one database read every VALIDITY_CHECK_MS, not one a request. */
  private readonly lookedUp = new Map<string, { principal: TenantPrincipal & { keyId: string }; at: number }>();

  constructor(
    private readonly tenants: TenantRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    revocations: KeyRevocations,
  ) {
    revocations.onRevoked((keyId) => this.forget(keyId));
  }

  /** Whether this is the admin key (compared in constant time; no database involved). */
  isAdminKey(key: string): boolean {
    return this.config.adminApiKey !== null && sameSecret(key, this.config.adminApiKey);
  }

  /** Whether this key was found valid within the last VALIDITY_CHECK_MS (no database involved). */
  remembersValid(key: string): boolean {
    const remembered = this.lookedUp.get(hashApiKey(key));
    return remembered !== undefined && this.clock.now().getTime() - remembered.at < VALIDITY_CHECK_MS;
  }

  async identify(key: string | null): Promise<Principal> {
    if (key === null) {
      if (this.config.requireApiKey) {
        throw new UnauthenticatedError('an API key is required: send "Authorization: Bearer <key>" or "X-API-Key: <key>"');
      }
      return { kind: 'tenant', tenantId: PUBLIC_TENANT.id, keyId: null, scope: 'anonymous' };
    }
    if (this.isAdminKey(key)) return { kind: 'admin' };
    const hash = hashApiKey(key);
    const now = this.clock.now().getTime();
    const remembered = this.lookedUp.get(hash);
    if (remembered && now - remembered.at < VALIDITY_CHECK_MS) return remembered.principal;
    const record = await this.tenants.findKeyByHash(hash);
    if (!record || record.revokedAt !== null) {
      this.lookedUp.delete(hash);
      throw new UnauthenticatedError('the API key is not valid');
    }
    await this.touch(record.id);
    const principal = { kind: 'tenant', tenantId: record.tenantId, keyId: record.id, scope: record.scope === 'reader' ? 'reader' : 'agent' } as const;
    this.remember(hash, principal, now);
    return principal;
  }

  private remember(hash: string, principal: TenantPrincipal & { keyId: string }, at: number): void {
    this.lookedUp.delete(hash);
    if (this.lookedUp.size >= REMEMBERED_KEYS) this.lookedUp.delete(this.lookedUp.keys().next().value!);
    this.lookedUp.set(hash, { principal, at });
  }

  /**
   * Whether a key that authenticated an open session is still valid: revocations in this process are seen at once
   * (TenantsService tells sessions directly), those made by another process on the same file within a few seconds.
   */
  async stillValid(keyId: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const known = this.validity.get(keyId);
    if (known && now - known.at < VALIDITY_CHECK_MS) return known.valid;
    const record = await this.tenants.findKey(keyId);
    const valid = record !== null && record.revokedAt === null;
    this.validity.set(keyId, { valid, at: now });
    return valid;
  }

  /** A key revoked in this process: refused from the next request on. */
  forget(keyId: string): void {
    this.validity.set(keyId, { valid: false, at: this.clock.now().getTime() });
    for (const [hash, { principal }] of this.lookedUp) if (principal.keyId === keyId) this.lookedUp.delete(hash);
  }

  private async touch(keyId: string): Promise<void> {
    const now = this.clock.now().getTime();
    if (now - (this.lastTouched.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    this.lastTouched.set(keyId, now);
    await this.tenants.touchKey(keyId, new Date(now));
  }
}

/**
 * The key from `Authorization: Bearer <key>`, `X-API-Key: <key>`, HTTP Basic with the key as the password (what
 * OpenEnv's Python clients send for a `http://user:KEY@host` base URL: httpx over HTTP, websockets on the /ws
 * upgrade; the user name is ignored, and a key given as the user name alone is taken too) or, where a transport
 * allows it (the /ws upgrade), an `api_key` query parameter. A malformed header is a 401.
 */
export function presentedKey(headers: IncomingHttpHeaders, queryKey?: string | null): string | null {
  const authorization = headers.authorization;
  if (authorization !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (bearer) return bearer[1];
    const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
    if (basic) return basicAuthKey(basic[1]);
    throw new UnauthenticatedError('the Authorization header must be "Bearer <key>" (or HTTP Basic with the key as the password)');
  }
  const header = headers['x-api-key'];
  if (header !== undefined) {
    const value = Array.isArray(header) ? header[0] : header;
    if (!value || value.trim() === '') throw new UnauthenticatedError('the X-API-Key header is empty');
    return value.trim();
  }
  return queryKey && queryKey.trim() !== '' ? queryKey.trim() : null;
}

function basicAuthKey(encoded: string): string {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const [user, password] = colon === -1 ? [decoded, ''] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
  const key = decodeURIComponentSafe(password || user).trim();
  if (key === '') throw new UnauthenticatedError('HTTP Basic credentials must carry the API key as the password');
  return key;
}

/** URL user-info may arrive percent-encoded (a client that copies it from the URL as is). */
function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
