/**
 * A table looked up by a reply's words: it answers for its own words only. A plain object literal also "has"
 * `constructor` and `__proto__` (inherited), so a reply saying "constructor" read as a number, a month or a
 * currency, and one such reply held the grader in a loop for good.
 */
export function wordTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
