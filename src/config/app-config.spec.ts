import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  [{ DATABASE_URL: 'mysql://root:hunter2@localhost/db' }, /DATABASE_URL must be a SQLite file URL .* or a PostgreSQL URL/],
  [{ DATABASE_URL: 'postgresql://user:hunter2@db.internal' }, /DATABASE_URL must name a PostgreSQL server and database/],
  [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE="0"/],
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

describe('safe defaults per mode', () => {
  it('listens on loopback and answers loopback names unless told otherwise', () => {
    const config = loadConfig({});
    expect(config.host).toBe('127.0.0.1');
    expect(config.allowedHosts).toEqual(['localhost', '127.0.0.1', '::1']);
    expect(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts).toBe('*');
    expect(loadConfig({ ALLOWED_HOSTS: 'A.example, b.example' }).allowedHosts).toEqual(['a.example', 'b.example']);
  });

  it('never rate-limits a single local user by default, and limits tenants of a shared deployment', () => {
    expect(loadConfig({}).rateLimitPerMinute).toBe(0);
    const shared = loadConfig({ REQUIRE_API_KEY: 'true', ADMIN_API_KEY: 'a'.repeat(24), CHAIN_KEY: 'c'.repeat(32) });
    expect(shared.rateLimitPerMinute).toBe(60_000);
    expect(loadConfig({ RATE_LIMIT_PER_MINUTE: '100' }).rateLimitPerMinute).toBe(100);
  });

  it('refuses a shared deployment that could not be used or audited: keys required without the admin or chain key', () => {
    try {
      loadConfig({ REQUIRE_API_KEY: 'true' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^REQUIRE_API_KEY=true needs ADMIN_API_KEY \(or ADMIN_API_KEY_FILE\)/),
        expect.stringMatching(/^REQUIRE_API_KEY=true needs CHAIN_KEY \(or CHAIN_KEY_FILE\)/),
      ]);
    }
  });
});

describe('secrets from files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'config-secrets-'));
  const file = (name: string, content: string) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('reads ADMIN_API_KEY_FILE and CHAIN_KEY_FILE (Docker secrets), without the trailing newline', () => {
    const config = loadConfig({ ADMIN_API_KEY_FILE: file('admin', `${'a'.repeat(30)}\n`), CHAIN_KEY_FILE: file('chain', `${'c'.repeat(40)}\n`) });
    expect(config.adminApiKey).toBe('a'.repeat(30));
    expect(config.chainKey).toBe('c'.repeat(40));
  });

  it('names the variable, never the secret, when something is wrong', () => {
    expect(() => loadConfig({ ADMIN_API_KEY: 'x'.repeat(30), ADMIN_API_KEY_FILE: file('both', 'y'.repeat(30)) })).toThrow(/ADMIN_API_KEY and ADMIN_API_KEY_FILE are both set/);
    expect(() => loadConfig({ CHAIN_KEY_FILE: join(dir, 'missing') })).toThrow(/CHAIN_KEY_FILE=".*missing": cannot be read \(ENOENT\)/);
    try {
      loadConfig({ ADMIN_API_KEY_FILE: file('short', 'short-secret') });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).message).toMatch(/ADMIN_API_KEY=\(hidden\): must be at least 24 characters/);
      expect((error as ConfigError).message).not.toContain('short-secret');
    }
  });

  describe('the private test split', () => {
    const secret = 'private-split-secret-0123456789abcdef';

    it('is off by default; PRIVATE_SPLIT_KEY or PRIVATE_SPLIT_KEY_FILE turns it on, with retired keys from PRIVATE_SPLIT_RETIRED_KEYS_FILE', () => {
      expect(loadConfig({})).toMatchObject({ privateSplitKey: null, privateSplitRetiredKeys: [] });
      expect(loadConfig({ PRIVATE_SPLIT_KEY: secret }).privateSplitKey).toBe(secret);
      const retired = file('private-retired', `# rotated 2026-12\n${'r'.repeat(40)}\n\n${'s'.repeat(32)}\n`);
      const config = loadConfig({ PRIVATE_SPLIT_KEY_FILE: file('private', `${secret}\n`), PRIVATE_SPLIT_RETIRED_KEYS_FILE: retired });
      expect(config).toMatchObject({ privateSplitKey: secret, privateSplitRetiredKeys: ['r'.repeat(40), 's'.repeat(32)] });
      // Retired keys alone: old private episodes still verify, and no new one can be drawn.
      expect(loadConfig({ PRIVATE_SPLIT_RETIRED_KEYS_FILE: retired })).toMatchObject({ privateSplitKey: null, privateSplitRetiredKeys: ['r'.repeat(40), 's'.repeat(32)] });
    });

    it('refuses a short key, both forms at once, an unreadable file, a short retired line, and the chain key reused, never echoing a secret', () => {
      const problemsOf = (env: Record<string, string>): string[] => {
        try {
          loadConfig(env);
        } catch (error) {
          return (error as ConfigError).problems;
        }
        throw new Error('expected a ConfigError');
      };
      expect(problemsOf({ PRIVATE_SPLIT_KEY: 'too-short-secret' })).toEqual(['PRIVATE_SPLIT_KEY=(hidden): must be at least 32 characters (e.g. openssl rand -hex 32)']);
      expect(problemsOf({ PRIVATE_SPLIT_KEY: secret, PRIVATE_SPLIT_KEY_FILE: file('private-both', secret) })).toEqual([
        'PRIVATE_SPLIT_KEY and PRIVATE_SPLIT_KEY_FILE are both set; set one of them',
      ]);
      expect(problemsOf({ PRIVATE_SPLIT_KEY_FILE: join(dir, 'absent') })[0]).toMatch(/^PRIVATE_SPLIT_KEY_FILE=".*absent": cannot be read \(ENOENT\)$/);
      expect(problemsOf({ PRIVATE_SPLIT_RETIRED_KEYS_FILE: join(dir, 'absent') })[0]).toMatch(/^PRIVATE_SPLIT_RETIRED_KEYS_FILE=".*absent": cannot be read/);
      expect(problemsOf({ PRIVATE_SPLIT_RETIRED_KEYS_FILE: file('private-short', 'short-retired\n') })).toEqual([
        expect.stringMatching(/^PRIVATE_SPLIT_RETIRED_KEYS_FILE=".*": 1 line\(s\) shorter than 32 characters$/),
      ]);
      expect(problemsOf({ PRIVATE_SPLIT_KEY: secret, CHAIN_KEY: secret })).toEqual(['PRIVATE_SPLIT_KEY=(hidden): must differ from CHAIN_KEY and the retired chain keys']);
      const chainRetired = file('chain-retired', `${secret}\n`);
      expect(problemsOf({ PRIVATE_SPLIT_KEY: secret, CHAIN_RETIRED_KEYS_FILE: chainRetired })).toHaveLength(1);
      for (const env of [{ PRIVATE_SPLIT_KEY: 'too-short-secret' }, { PRIVATE_SPLIT_KEY: secret, CHAIN_KEY: secret }] as Record<string, string>[]) {
        expect(problemsOf(env).join('\n')).not.toMatch(/too-short-secret|private-split-secret/);
      }
    });
  });

  it('a DATABASE_URL that is not a file URL is reported with the variable named', () => {
    expect(() => loadConfig({ DATABASE_URL: '/x.db' })).toThrow(/DATABASE_URL must be a SQLite file URL starting with "file:"/);
  });

  it('a refused DATABASE_URL is never repeated with its password', () => {
    for (const url of ['mysql://root:hunter2@localhost/db', 'postgresql://user:hunter2@db.internal', 'postgresql://user:hunter2@/']) {
      expect(() => loadConfig({ DATABASE_URL: url })).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_URL: url })).not.toThrow(/hunter2/);
    }
  });

  it('DATABASE_URL=postgresql://… names a PostgreSQL server, as given; DATABASE_URL_FILE reads it from a mounted secret', () => {
    const url = 'postgresql://app:s3cret@db.internal:5432/supportdesk?sslmode=require';
    const key = { CHAIN_KEY: 'c'.repeat(64) };
    expect(loadConfig({ DATABASE_URL: url, ...key })).toMatchObject({ databaseUrl: url, databaseKind: 'postgresql', databasePoolSize: 10 });
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(/PostgreSQL server: set CHAIN_KEY \(or CHAIN_KEY_FILE\), the same on every server process/);
    const dir = mkdtempSync(join(tmpdir(), 'database-url-'));
    try {
      writeFileSync(join(dir, 'url'), `${url}\n`);
      expect(loadConfig({ DATABASE_URL_FILE: join(dir, 'url'), DATABASE_POOL_SIZE: '25', ...key })).toMatchObject({ databaseUrl: url, databaseKind: 'postgresql', databasePoolSize: 25 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(loadConfig({}).databaseKind).toBe('sqlite');
  });
});

describe('trusted proxies and /ws flow control', () => {
  it('reads TRUSTED_PROXIES as addresses and CIDR ranges, none by default', () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(loadConfig({ TRUSTED_PROXIES: '172.30.86.2, 10.0.0.0/8,::1 , fd00::/8' }).trustedProxies).toEqual(['172.30.86.2', '10.0.0.0/8', '::1', 'fd00::/8']);
  });

  it.each(['proxy.example', '10.0.0.0/33', '10.0.0.1/8/1', '::1/129'])('refuses TRUSTED_PROXIES=%s, naming it', (entry) => {
    expect(() => loadConfig({ TRUSTED_PROXIES: entry })).toThrow(new RegExp(`TRUSTED_PROXIES=.*not an IP address or CIDR range: ${entry.replace(/[./]/g, '\\$&')}`));
  });

  it('has /ws flow-control defaults that never slow a single sequential client', () => {
    expect(loadConfig({})).toMatchObject({ wsMaxMessagesPerSecond: 2000, wsMaxPendingMessages: 64, wsMaxBufferedBytes: 1024 * 1024 });
  });
});

describe('metrics', () => {
  it('reads METRICS_ALLOW_FROM as addresses and CIDR ranges (none by default: the admin key only) and tenant labels off by default', () => {
    expect(loadConfig({})).toMatchObject({ metricsAllowFrom: [], metricsTenantLabels: false });
    expect(loadConfig({ METRICS_ALLOW_FROM: '127.0.0.1, 10.0.0.0/8,::1', METRICS_TENANT_LABELS: 'true' })).toMatchObject({
      metricsAllowFrom: ['127.0.0.1', '10.0.0.0/8', '::1'],
      metricsTenantLabels: true,
    });
  });

  it.each(['prometheus.internal', '10.0.0.0/33', '10.0.0.0/', '10.0.0.0/8.5', 'fd00::/129', '10.0.0.1/8/1'])('refuses METRICS_ALLOW_FROM=%s, naming it', (entry) => {
    expect(() => loadConfig({ METRICS_ALLOW_FROM: `127.0.0.1,${entry}` })).toThrow(
      new RegExp(`METRICS_ALLOW_FROM=.*not an IP address or CIDR range: ${entry.replace(/[./]/g, '\\$&')}$`, 'm'),
    );
  });

  it('refuses METRICS_TENANT_LABELS other than true or false', () => {
    expect(() => loadConfig({ METRICS_TENANT_LABELS: 'yes' })).toThrow(/METRICS_TENANT_LABELS="yes": must be true or false/);
  });
});
