import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { accessRefusal, type AccessLevel } from '../access/access.decorator';
import type { Principal } from '../access/principal';
import { AddressList } from '../common/address-list';
import { Clock } from '../common/clock';
import { ForbiddenError, TooManyError, UnauthenticatedError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Metrics } from '../metrics';
import { hashApiKey } from '../tenants/api-key-secret';
import { Authenticator, presentedKey } from './authenticator';
import { KeyHashRepository } from './key-hash.repository';
import { ReplicaCoordination, type RateLimits } from '../replicas';

export interface Credentials {
  headers: IncomingHttpHeaders;
  /** The client's address (behind a trusted proxy, the one it forwards): failed authentications are limited per address. */
  clientAddress: string;
  /** A key in the `api_key` query parameter; accepted on the /ws upgrade only. */
  queryKey?: string | null;
  /** Whether the transport accepts a key in the query string. */
  acceptsQueryKey: boolean;
}

/**
 * The one key check and the one rate limiter, for every transport: HTTP requests (decided before their body is
 * read), /ws upgrades and every /ws message, and /mcp (which is HTTP).
 *
 * Failed authentications are limited per client address (AUTH_FAILURES_PER_MINUTE), and the limit only ever
 * refuses credentials that fail: behind a NAT or a proxy many clients share an address, and one of them sending
 * wrong keys must not lock the others out. So the presented key is looked at first: the admin key (compared in
 * memory) and the public tenant (no key, in open mode) are never limited; a tenant key from an address over its
 * budget is checked with one indexed read on the database's direct connection (microseconds, no lock) and, when no
 * valid key has its hash, answered 429 without the full lookup; a valid one goes on as from any other address.
 * Refusals and 429s are counted by kind (Metrics), never by key or address.
 */
@Injectable()
export class RequestAuthentication implements OnModuleDestroy {
  private readonly requests: RateLimits;
  private readonly failures: RateLimits;
  private readonly pruner: NodeJS.Timeout;
  /** Who may scrape /metrics without a key (METRICS_ALLOW_FROM). */
  private readonly scrapers: AddressList;

  constructor(
    private readonly authenticator: Authenticator,
    private readonly keyHashes: KeyHashRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    clock: Clock,
    private readonly metrics: Metrics,
    replicas: ReplicaCoordination,
  ) {
    this.scrapers = new AddressList(config.metricsAllowFrom);
    const now = () => clock.now().getTime();
    // Shared by every replica on PostgreSQL, in this process's memory on SQLite (docs/replicas.md).
    this.requests = replicas.rateLimits('requests', config.rateLimitPerMinute, now);
    this.failures = replicas.rateLimits('failures', config.authFailuresPerMinute, now);
    this.pruner = setInterval(() => {
      if (!replicas.isLeader()) return;
      Promise.all([this.requests.prune(), this.failures.prune()]).catch(() => undefined);
    }, 60_000).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.pruner);
  }

  /**
   * Whether a request to a route of this level is let in without authentication by its client address: /metrics
   * (level `metrics`) from an address in METRICS_ALLOW_FROM, presenting no key. The address is the one proxy trust
   * gives (`request.ip`: a forwarded address only from a trusted proxy), so a client cannot claim an allowed one.
   * A request that presents a key is judged by its key, as anywhere.
   */
  admitsWithoutKey(level: AccessLevel, request: { headers: IncomingHttpHeaders; ip: string }): boolean {
    return level === 'metrics' && request.headers.authorization === undefined && request.headers['x-api-key'] === undefined && this.scrapers.has(request.ip);
  }

  /** Who is calling a route of this access level, counted against their rate; throws 401/403/429 otherwise. */
  async authenticate(level: Exclude<AccessLevel, 'public'>, credentials: Credentials): Promise<Principal> {
    const address = credentials.clientAddress;
    let principal: Principal;
    // Undefined until the credentials are read: then a failure means they could not be.
    let key: string | null | undefined;
    try {
      if (credentials.queryKey && !credentials.acceptsQueryKey) {
        throw new UnauthenticatedError('send the API key in the Authorization or X-API-Key header; ?api_key= is accepted only on the /ws upgrade');
      }
      key = presentedKey(credentials.headers, credentials.acceptsQueryKey ? credentials.queryKey : null);
      if (key === null && level === 'admin') {
        throw new UnauthenticatedError('this route needs the admin key: send "Authorization: Bearer <admin key>"');
      }
      if (key === null && level === 'metrics') {
        throw new UnauthenticatedError('this route needs the admin key (send "Authorization: Bearer <admin key>"), or a client address in METRICS_ALLOW_FROM');
      }
      // A key known to be valid is never limited, so its address's budget is not even looked at.
      if (key !== null && !this.authenticator.isAdminKey(key) && !this.authenticator.remembersValid(key)) {
        const wait = await this.failures.wait(address);
        if (wait > 0 && !(await this.keyHashes.isValidKeyHash(hashApiKey(key)))) throw this.tooManyFailures(wait);
      }
      principal = await this.authenticator.identify(key);
    } catch (error) {
      if (error instanceof UnauthenticatedError) {
        // Past the budget, a failing credential is told to slow down (no lookup was needed to know it fails).
        const wait = await this.failures.take(address);
        if (wait > 0) throw this.tooManyFailures(wait);
        this.metrics.authRejected(key === undefined ? 'malformed' : key === null ? 'missing_key' : 'invalid_key');
      }
      throw error;
    }
    const refusal = accessRefusal(level, principal);
    if (refusal) {
      this.metrics.authRejected('forbidden');
      throw new ForbiddenError(refusal);
    }
    await this.count(principal);
    return principal;
  }

  private tooManyFailures(seconds: number): TooManyError {
    this.metrics.rateLimited('auth_failures');
    const wait = Math.max(1, seconds);
    return new TooManyError(
      `too many failed authentications from this address (at most ${this.config.authFailuresPerMinute} a minute); retry in ${wait} s. ` +
        'Valid keys are not affected',
      wait,
    );
  }

  /** A public route: no key is looked at, but a client address still has a rate (when there is a limit at all). */
  async countPublic(clientAddress: string): Promise<void> {
    const wait = await this.requests.take(`address:${clientAddress}`);
    if (wait > 0) {
      this.metrics.rateLimited('address');
      throw new TooManyError(`the rate limit of ${this.config.rateLimitPerMinute} requests a minute per address is used up; retry in ${wait} s`, wait);
    }
  }

  /** One more message of an open session: its key must still be valid, and it counts against the tenant's rate. */
  async checkMessage(principal: Principal): Promise<void> {
    if (principal.kind === 'tenant' && principal.keyId !== null && !(await this.authenticator.stillValid(principal.keyId))) {
      this.metrics.authRejected('invalid_key');
      throw new UnauthenticatedError('the API key of this session has been revoked');
    }
    await this.count(principal);
  }

  /**
   * The steps of a batch beyond the first (its request or message was counted as one), against the tenant's rate:
   * all of them, or none and a 429, so a batch is never cut short by the rate.
   */
  async countBatchSteps(principal: Principal, further: number): Promise<void> {
    if (principal.kind === 'admin' || further <= 0 || this.config.rateLimitPerMinute === 0) return;
    const wait = further + 1 > this.config.rateLimitPerMinute ? Infinity : await this.requests.take(`tenant:${principal.tenantId}`, further);
    if (wait > 0) this.metrics.rateLimited('tenant');
    if (wait === Infinity) {
      throw new TooManyError(
        `a batch of ${further + 1} steps is more than this tenant's rate limit of ${this.config.rateLimitPerMinute} requests a minute (RATE_LIMIT_PER_MINUTE) allows at once; send smaller batches`,
        60,
      );
    }
    if (wait > 0) {
      throw new TooManyError(
        `this tenant's rate limit of ${this.config.rateLimitPerMinute} requests a minute (RATE_LIMIT_PER_MINUTE) has fewer than the batch's ${further + 1} steps left; retry in ${wait} s`,
        wait,
      );
    }
  }

  /** Tenants share the server and have a rate; the admin key (the operator) does not. */
  private async count(principal: Principal): Promise<void> {
    if (principal.kind === 'admin' || this.config.rateLimitPerMinute === 0) return;
    const wait = await this.requests.take(`tenant:${principal.tenantId}`);
    if (wait > 0) {
      this.metrics.rateLimited('tenant');
      throw new TooManyError(
        `this tenant's rate limit of ${this.config.rateLimitPerMinute} requests a minute (RATE_LIMIT_PER_MINUTE) is used up; retry in ${wait} s`,
        wait,
      );
    }
  }
}
