/*
 * Money as the families write it, in US dollars. Grouped by hand rather than with toLocaleString, whose output
 * depends on the runtime's ICU data.
 */

/** "$1,740.00": amounts in articles, contract notes, tickets and events. */
export function usd(amount: number): string {
  return `$${amount.toFixed(2).replace(/\B(?=(\d{3})+\.)/g, ',')}`;
}

/** "$1740.00", ungrouped: how an answer key's justification quotes a figure. */
export function usdUngrouped(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

/** Whole cents as the JSON amount an answer key and a resolve action carry (348.5 for 34850 cents). */
export function amountOf(cents: number): number {
  return cents / 100;
}

/** "$1,740.00" from whole cents (kept in cents where sums and doublings must stay exact). */
export function usdFromCents(cents: number): string {
  return usd(amountOf(cents));
}
