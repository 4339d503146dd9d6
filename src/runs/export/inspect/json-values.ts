import type { InspectJson, InspectJsonObject } from './inspect-log.types';

/**
 * The values the export writes: JSON only (no NaN, no Infinity; JSON.stringify would turn them into null where
 * Inspect's schema wants a number), and dates in ISO 8601.
 */

/** A finite number, or null for null, undefined, NaN and ±Infinity. */
export function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** A non-negative whole count, or null (token counts and durations that are missing or nonsense). */
export function countOrNull(value: number | null | undefined): number | null {
  const n = finiteOrNull(value);
  return n !== null && n >= 0 ? Math.round(n) : null;
}

/** An ISO 8601 instant in UTC (`2026-01-02T03:04:05.000Z`); a value Date cannot read is an error of the caller. */
export function isoInstant(value: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an ISO 8601 date: ${JSON.stringify(value)}`);
  return date.toISOString();
}

/**
 * Any value as JSON: non-finite numbers become null, bigints decimal strings, dates ISO strings, and what JSON
 * cannot hold (undefined, functions, symbols, a value met again inside itself) is dropped from objects and
 * becomes null in arrays.
 */
export function toJsonValue(value: unknown): InspectJson {
  return convert(value, new Set()) ?? null;
}

/** An object's entries as JSON (see toJsonValue). */
export function toJsonObject(value: Record<string, unknown>): InspectJsonObject {
  const converted = convert(value, new Set());
  return converted !== null && typeof converted === 'object' && !Array.isArray(converted) ? converted : {};
}

function convert(value: unknown, seen: Set<object>): InspectJson | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (seen.has(value)) return undefined;
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => convert(item, seen) ?? null);
    const out: InspectJsonObject = {};
    for (const [key, item] of Object.entries(value)) {
      const converted = convert(item, seen);
      if (converted !== undefined) out[key] = converted;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}

/** UTF-8 JSON of a value built by this module (already JSON-safe), compact as Inspect writes it. */
export function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), 'utf8');
}
