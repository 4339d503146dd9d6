/**
 * Orders strings by UTF-16 code units. Not localeCompare: the order (and so the bootstrap's draws and the tiers)
 * must not depend on the machine's locale.
 */
export function compareCodeUnits(a: string, b: string): number {
  if (a < b) return -1;
  return a > b ? 1 : 0;
}
