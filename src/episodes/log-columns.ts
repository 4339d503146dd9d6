/*
 * How action_log stores its two widest fixed columns (migration 20261203170000_compact_log_columns): created_at in
 * Unix milliseconds, hash as its 32 raw bytes. The rest of the code sees a Date and the lowercase hex the chain is
 * computed in; these convert at the boundary. SQL that needs the hex uses hashHex.
 */

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
