/**
 * Decimal places of a number as JSON and JavaScript write it (its shortest round-trip form): 19.99 has 2, 0.57 has
 * 2, 1e-7 has 7, 1.5e+21 has none. This is what a client meant when it wrote the number, so "at most 2 decimals"
 * is decided exactly, without the float arithmetic that makes `multipleOf: 0.01` reject 0.57 (0.57 / 0.01 is
 * 56.99999999999999) or accept 0.30000000000000004.
 */
export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value)) return Number.POSITIVE_INFINITY;
  const [mantissa, exponent = '0'] = String(Math.abs(value)).toLowerCase().split('e');
  const fraction = mantissa.split('.')[1] ?? '';
  return Math.max(0, fraction.length - Number(exponent));
}

export function hasAtMostDecimals(value: number, places: number): boolean {
  return decimalPlaces(value) <= places;
}
