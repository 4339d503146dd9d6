import { ConfigError, loadConfig } from './app-config';

it('fills in the defaults: port 7860 and the embedded SQLite file', () => {
  const config = loadConfig({});
  expect(config.port).toBe(7860);
  expect(config.databaseUrl).toMatch(/^file:\/.*\/data\/supportdesk\.db$/);
  expect(config.sqliteSynchronous).toBe('FULL');
});

it('reads overrides', () => {
  const config = loadConfig({ PORT: '8080', DATABASE_URL: 'file:/tmp/supportdesk-config-test/x.db', SQLITE_SYNCHRONOUS: 'NORMAL' });
  expect(config).toMatchObject({ port: 8080, databaseUrl: 'file:/tmp/supportdesk-config-test/x.db', sqliteSynchronous: 'NORMAL' });
});

it.each([
  [{ PORT: 'eighty' }, /PORT="eighty"/],
  [{ PORT: '70000' }, /PORT="70000"/],
  [{ SQLITE_SYNCHRONOUS: 'OFF' }, /SQLITE_SYNCHRONOUS="OFF"/],
  [{ DATABASE_URL: 'postgres://localhost/db' }, /DATABASE_URL must be a SQLite file URL/],
  [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL="loud"/],
])('refuses %j, naming the variable', (env, message) => {
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(message);
});

it('names every bad variable at once', () => {
  try {
    loadConfig({ PORT: 'x', SQLITE_BUSY_TIMEOUT_MS: '-1' });
    throw new Error('expected a ConfigError');
  } catch (error) {
    expect((error as ConfigError).problems.map((p) => p.split('=')[0]).sort()).toEqual(['PORT', 'SQLITE_BUSY_TIMEOUT_MS']);
  }
});
