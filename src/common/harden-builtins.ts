/**
 * Start-up backstop against prototype pollution: once every module is loaded and the app is built,
 * Object.prototype, the Object constructor and Object.prototype's own methods are frozen, so a lookup bug
 * anywhere (ours or a library's) that writes through "__proto__", "constructor" or "toString" fails on its own
 * request instead of changing objects every tenant shares. Frozen only after start-up, because some libraries
 * assign members such as `toString` or `constructor` onto objects while loading, which a frozen prototype
 * refuses (the "override mistake"). Array.prototype and Function.prototype stay writable: class-transformer
 * assigns `constructor` onto arrays it builds (measured: every array body then failed).
 */
export function hardenedBuiltins(): object[] {
  const methods = Object.getOwnPropertyNames(Object.prototype)
    .map((name) => Object.getOwnPropertyDescriptor(Object.prototype, name)?.value as unknown)
    .filter((value): value is object => typeof value === 'function');
  return [Object.prototype, ...new Set(methods)];
}

export function hardenBuiltins(): void {
  for (const builtin of hardenedBuiltins()) Object.freeze(builtin);
}
