/*
 * ts-jest, transpiling file by file (tsconfig.jest.json sets isolatedModules), beside the ts-jest entry that
 * compiles DTOs and controllers with the type checker for the Swagger plugin. ts-jest keeps one compiler per Jest
 * project configuration, whatever options each transform entry gives it, so this entry shows it a configuration
 * of its own (the same, under another id); otherwise both entries would share whichever compiler came first.
 */
const { TsJestTransformer } = require('ts-jest');

const ownConfigs = new WeakMap();

function withOwnConfig(options) {
  let config = ownConfigs.get(options.config);
  if (!config) {
    config = { ...options.config, id: `${options.config.id}:transpile-only` };
    ownConfigs.set(options.config, config);
  }
  return { ...options, config };
}

module.exports = {
  createTransformer(tsJestOptions) {
    const transformer = new TsJestTransformer(tsJestOptions);
    return {
      canInstrument: transformer.canInstrument,
      getCacheKey: (source, path, options) => transformer.getCacheKey(source, path, withOwnConfig(options)),
      getCacheKeyAsync: (source, path, options) => transformer.getCacheKeyAsync(source, path, withOwnConfig(options)),
      process: (source, path, options) => transformer.process(source, path, withOwnConfig(options)),
      processAsync: (source, path, options) => transformer.processAsync(source, path, withOwnConfig(options)),
    };
  },
};
