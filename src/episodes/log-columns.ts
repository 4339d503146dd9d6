/*
 * How action_log stores its widest fixed columns: created_at in Unix milliseconds and hash as its 32 raw bytes
 * (migration 20261203170000_compact_log_columns), and its episode and tenant as their integer serials (migration
 * 20261203190000_integer_serials). The rest of the code sees a Date, the lowercase hex the chain is computed in, and
 * ids; these convert at the boundary. SQL that needs the hex uses hashHex; SQL that names an episode's or a tenant's
 * rows by id uses episodeSerial and tenantSerial.
 */

/** The serial of the episode (id, tenant_id), in SQL: the arguments are SQL expressions, parameters by default. */
export const episodeSerial = (id = '?', tenantId = '?') => `(SELECT serial FROM episodes WHERE id = ${id} AND tenant_id = ${tenantId})`;

/** The serial of a tenant, in SQL. */
export const tenantSerial = (id = '?') => `(SELECT serial FROM tenants WHERE id = ${id})`;

/** A row's hash as hex, in SQL (an empty value, a row from before chaining existed, reads as ""). */
export const hashHex = (column: string) => `lower(hex(${column}))`;

export function storedHash(hex: string): Buffer {
  return Buffer.from(hex, 'hex');
}

export function storedTime(at: Date): number {
  return at.getTime();
}

/** A log row as Prisma reads it (created_at a bigint, hash bytes), as the rest of the code sees it. */
export function fromStoredLog<T extends { createdAt: bigint | number; hash: Uint8Array }>(row: T): Omit<T, 'createdAt' | 'hash'> & { createdAt: Date; hash: string } {
  return { ...row, createdAt: new Date(Number(row.createdAt)), hash: Buffer.from(row.hash).toString('hex') };
}
