/*
 * ts-jest, shared by the three Jest projects. ts-jest keeps one compiler per Jest project configuration and puts
 * that configuration in its cache key, so by itself each project (unit, medium, e2e) builds its own compilers in
 * every worker and transforms every file it loads again, though all three transform alike. This wrapper shows
 * ts-jest one configuration for all of them, without the keys that only select and set up tests, under an id of
 * its own per tsconfig: the two transform entries (file by file, and the DTOs and controllers with the type
 * checker) keep a compiler each, rather than sharing whichever came first, and every project reuses them.
 */
const { TsJestTransformer } = require('ts-jest');
const { TsCompiler } = require('ts-jest/dist/legacy/compiler/ts-compiler');

/*
 * The type-checking entry's language service, built on the first file it compiles rather than with the compiler.
 * ts-jest builds it (parsing every DTO, controller and what they import) as soon as a worker asks for a cache key,
 * though a worker whose files are all in the transform cache (a warm run, or a cold one once the other worker has
 * compiled them) never compiles with it: several seconds of CPU per worker for nothing. Cache keys need only the
 * module resolution the compiler sets up without it.
 */
class LazyTsCompiler extends TsCompiler {
  _createLanguageService() {}

  getCompiledOutput(fileContent, fileName, options) {
    if (!this._languageService && !this.configSet.isolatedModules) TsCompiler.prototype._createLanguageService.call(this);
    return super.getCompiledOutput(fileContent, fileName, options);
  }
}

class SharedTsJestTransformer extends TsJestTransformer {
  _createCompiler(configSet, cacheFS) {
    this._compiler = new LazyTsCompiler(configSet, cacheFS);
  }
}

module.exports = {
  createTransformer(tsJestOptions) {
    const transformer = new SharedTsJestTransformer(tsJestOptions);
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
