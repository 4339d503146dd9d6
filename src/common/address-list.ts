import { BlockList, isIP } from 'node:net';

/**
 * IP addresses and CIDR ranges (`10.0.0.5`, `10.0.0.0/8`, `::1`, `fd00::/8`) a client address is looked up in:
 * the reverse proxies believed about forwarded headers (TRUSTED_PROXIES), the scrapers that may read /metrics
 * without a key (METRICS_ALLOW_FROM). Node's BlockList does the matching; an IPv4 client of a dual-stack socket
 * (`::ffff:10.0.0.5`) is looked up as its IPv4 address.
 */
export class AddressList {
  private readonly list: BlockList | null;

  /** Throws on an entry that is not an address or a range: configuration checks them first (parseAddressList). */
  constructor(entries: readonly string[]) {
    if (entries.length === 0) {
      this.list = null;
      return;
    }
    const list = new BlockList();
    for (const entry of entries) add(list, entry);
    this.list = list;
  }

  get empty(): boolean {
    return this.list === null;
  }

  has(address: string | undefined): boolean {
    if (this.list === null || address === undefined) return false;
    const plain = unmapped(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  }
}

/** The entries of a comma-separated configuration value, and those of them BlockList refuses. */
export function parseAddressList(value: string | undefined): { entries: string[]; bad: string[] } {
  const entries = (value ?? '').split(',').map((item) => item.trim()).filter(Boolean);
  return { entries, bad: entries.filter((entry) => !isAddressOrRange(entry)) };
}

function isAddressOrRange(entry: string): boolean {
  // A prefix must be written out in digits: Number('') would be /0, every address.
  const bits = entry.split('/')[1];
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return false;
  try {
    add(new BlockList(), entry);
    return true;
  } catch {
    return false;
  }
}

function add(list: BlockList, entry: string): void {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0) throw new Error(`not an IP address or CIDR range: ${entry}`);
  const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (bits === undefined) list.addAddress(address, type);
  else list.addSubnet(address, Number(bits), type);
}

/** `::ffff:10.0.0.5` (an IPv4 client of a dual-stack socket) as `10.0.0.5`. */
function unmapped(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}
