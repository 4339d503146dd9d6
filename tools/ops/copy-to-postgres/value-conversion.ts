import { OperationRefused } from '../operation-refused';

/*
 * A SQLite value as the PostgreSQL column of the same name stores it. The two schemas come from one model
 * (prisma/schema.prisma) and differ in how they store three kinds of column:
 * - DateTime: SQLite holds Unix milliseconds, an integer (the Prisma adapter's "unixepoch-ms" format, migration
 *   20261203200000_integer_times); PostgreSQL a timestamptz(3). Milliseconds are what both keep, so the instant the
 *   chains and the ledger MAC is the same to the millisecond.
 * - Boolean: SQLite holds 0 or 1; PostgreSQL a boolean.
 * - Bytes: a BLOB (a Buffer) either way; bytea on PostgreSQL.
 * Integers (BigInt included: action_log.created_at, milliseconds), floating-point numbers (rate_buckets, which a
 * SQLite server leaves empty) and text are the same on both. A value the column
 * cannot hold (text where a time belongs, a NUL character, which PostgreSQL's text refuses) stops the copy naming the
 * row's table, column and value: it would otherwise be lost or changed, and only a damaged file holds one.
 */

/** The PostgreSQL types of this schema's columns (information_schema.columns.data_type). */
export type PostgresColumnType = 'timestamp with time zone' | 'boolean' | 'bytea' | 'integer' | 'bigint' | 'double precision' | 'text';

export const SUPPORTED_TYPES: readonly string[] = ['timestamp with time zone', 'boolean', 'bytea', 'integer', 'bigint', 'double precision', 'text'];

export type ValueConverter = (value: unknown) => unknown;

export function converterFor(table: string, column: string, type: PostgresColumnType): ValueConverter {
  const refuse = (value: unknown, why: string): never => {
    throw new OperationRefused(`${table}.${column} holds ${describe(value)}, ${why}; the copy was rolled back`);
  };
  switch (type) {
    case 'timestamp with time zone':
      return (value) => {
        if (value === null) return null;
        // An ISO string is what releases before the integer times wrote; the migration converted every one.
        const ms = typeof value === 'number' || typeof value === 'bigint' ? Number(value) : typeof value === 'string' ? Date.parse(value) : NaN;
        if (!Number.isSafeInteger(ms)) refuse(value, 'which is not a time');
        return new Date(ms);
      };
    case 'boolean':
      return (value) => {
        if (value === null) return null;
        if (value === 0 || value === 1 || value === 0n || value === 1n) return Number(value) === 1;
        return refuse(value, 'which is not a boolean (0 or 1)');
      };
    case 'bytea':
      return (value) => {
        if (value === null || Buffer.isBuffer(value)) return value;
        return refuse(value, 'which is not bytes');
      };
    case 'integer':
    case 'bigint':
      return (value) => {
        if (value === null || typeof value === 'bigint' || (typeof value === 'number' && Number.isSafeInteger(value))) return value;
        return refuse(value, 'which is not an integer');
      };
    case 'double precision':
      return (value) => {
        if (value === null || (typeof value === 'number' && Number.isFinite(value))) return value;
        return refuse(value, 'which is not a finite number');
      };
    case 'text':
      return (value) => {
        if (value === null) return null;
        if (typeof value !== 'string') return refuse(value, 'where text belongs');
        if (value.includes('\u0000')) refuse(value, 'with a NUL character, which PostgreSQL text cannot hold');
        return value;
      };
  }
}

function describe(value: unknown): string {
  if (Buffer.isBuffer(value)) return `${value.length} byte(s)`;
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}
