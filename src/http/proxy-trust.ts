import type { IncomingHttpHeaders } from 'node:http';
import { AddressList } from '../common/address-list';
import type { AppConfig } from '../config/app-config';

/** What the trust decisions read of a request: its headers and the address of the socket it came on. */
export interface ForwardedRequest {
  headers: IncomingHttpHeaders;
  socket: { remoteAddress?: string; encrypted?: boolean } | null;
}

/**
 * The reverse proxies named in TRUSTED_PROXIES, and what their X-Forwarded-* headers say. Only a connection from a
 * trusted proxy is believed: the client address is the nearest X-Forwarded-For hop that is not itself a trusted
 * proxy (as Fastify's `trustProxy` computes `request.ip`, which gets the same rule), and X-Forwarded-Proto/-Host
 * (their last value, the one the nearest proxy set) give the scheme and host the client used. Anyone else's
 * X-Forwarded-* headers are ignored, so no client can choose the address it is limited and logged under.
 * One instance per configuration, shared by HTTP, the /ws upgrade and the connection caps.
 */
export class ProxyTrust {
  private static readonly byConfig = new WeakMap<object, ProxyTrust>();
  private readonly list: AddressList;

  static of(config: Pick<AppConfig, 'trustedProxies'>): ProxyTrust {
    let trust = ProxyTrust.byConfig.get(config);
    if (!trust) {
      trust = new ProxyTrust(config.trustedProxies);
      ProxyTrust.byConfig.set(config, trust);
    }
    return trust;
  }

  constructor(entries: readonly string[]) {
    this.list = new AddressList(entries);
  }

  /** Whether this address (a socket's, or a forwarded hop) is one of the trusted proxies. */
  trusts(address: string | undefined): boolean {
    return this.list.has(address);
  }

  /** Fastify's `trustProxy` option: the same decision, so `request.ip`, `.protocol` and `.host` agree with this. */
  forFastify(): false | ((address: string) => boolean) {
    return this.list.empty ? false : (address: string) => this.trusts(address);
  }

  /**
   * The client's address: the socket's, or behind trusted proxies the nearest forwarded hop that is not one. Given
   * as Fastify's `request.ip` gives it (an IPv4 client of a dual-stack socket stays `::ffff:…`), so the /ws upgrade
   * and HTTP count one client under one name.
   */
  clientAddress(request: ForwardedRequest): string {
    const socketAddress = request.socket?.remoteAddress ?? 'unknown';
    if (!this.trusts(socketAddress)) return socketAddress;
    const hops = headerValue(request.headers['x-forwarded-for'])
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean)
      .reverse();
    let address = socketAddress;
    for (const hop of hops) {
      if (!this.trusts(address)) break;
      address = hop;
    }
    return address;
  }

  /**
   * The scheme and `host[:port]` the client addressed, as the server sees them: the socket's scheme and the Host
   * header, or a trusted proxy's X-Forwarded-Proto and X-Forwarded-Host.
   */
  requestedOrigin(request: ForwardedRequest): { scheme: string; host: string | undefined } {
    const viaProxy = this.trusts(request.socket?.remoteAddress);
    const forwardedProto = viaProxy ? lastValue(request.headers['x-forwarded-proto']) : undefined;
    const forwardedHost = viaProxy ? lastValue(request.headers['x-forwarded-host']) : undefined;
    const scheme = (forwardedProto ?? (request.socket?.encrypted ? 'https' : 'http')).toLowerCase();
    return { scheme, host: forwardedHost ?? request.headers.host };
  }
}

function headerValue(value: string | string[] | undefined): string {
  return Array.isArray(value) ? value.join(',') : (value ?? '');
}

/** A proxy appends to a list header: its own value is the last. */
function lastValue(value: string | string[] | undefined): string | undefined {
  const last = headerValue(value).split(',').pop()?.trim();
  return last ? last : undefined;
}
