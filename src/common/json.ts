/** Any JSON value: what schemas, tool definitions and stored documents are made of. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON object from a stored text, or {} when it is not one: a tampered row reads as empty and never throws. */
export function storedJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
