/*
 * ts-jest, shared by the three Jest projects. ts-jest keeps one compiler per Jest project configuration and puts
 * that configuration in its cache key, so by itself each project (unit, medium, e2e) builds its own compilers in
 * every worker and transforms every file it loads again, though all three transform alike. This wrapper shows
 * ts-jest one configuration for all of them, without the keys that only select and set up tests, under an id of
 * its own per tsconfig: the two transform entries (file by file, and the DTOs and controllers with the type
 * checker) keep a compiler each, rather than sharing whichever came first, and every project reuses them.
 */
const { TsJestTransformer } = require('ts-jest');

module.exports = {
  createTransformer(tsJestOptions) {
    const transformer = new TsJestTransformer(tsJestOptions);
    const id = `supportdesk-tests:${tsJestOptions.tsconfig}`;
    // Per entry: the same project configuration becomes another shared one under each entry's id.
    const sharedConfigs = new WeakMap();
    const withSharedConfig = (options) => {
      let config = sharedConfigs.get(options.config);
      if (!config) {
        config = { ...options.config, id, displayName: undefined, testMatch: [], testRegex: [], testPathIgnorePatterns: [], setupFiles: [] };
        sharedConfigs.set(options.config, config);
      }
      return { ...options, config };
    };
    return {
      canInstrument: transformer.canInstrument,
      getCacheKey: (source, path, options) => transformer.getCacheKey(source, path, withSharedConfig(options)),
      getCacheKeyAsync: (source, path, options) => transformer.getCacheKeyAsync(source, path, withSharedConfig(options)),
      process: (source, path, options) => transformer.process(source, path, withSharedConfig(options)),
      processAsync: (source, path, options) => transformer.processAsync(source, path, withSharedConfig(options)),
    };
  },
};
