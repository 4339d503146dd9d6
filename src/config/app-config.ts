import { join, resolve } from 'node:path';
import { parseAddressList } from '../common/address-list';
import { PROJECT_ROOT } from '../common/project-root';
import { z } from 'zod';
import { LIMITS } from '../engine/vocabulary';
import { databaseKindOf, resolveDatabaseUrl, type DatabaseKind } from './database-url';
import { readSecretLines, readSecretVariables } from './secret-variables';

/** Host names a server on loopback answers to by default (a DNS-rebinding page uses another name). */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

/**
 * Requests per minute per tenant when RATE_LIMIT_PER_MINUTE is not set: none in open mode (a single local user's
 * training loop must never be throttled), and a share of the server on a shared deployment (keys required).
 */
export const DEFAULT_SHARED_RATE_LIMIT_PER_MINUTE = 60_000;

/**
 * Where the canonical task files are in a checkout: each family's folder holds its `canonical.json`
 * (src/families/<id>/canonical.json). The server does not read them from here: with TASKS_DIR unset it serves the
 * registry's canonical instances, which are these files compiled into the build.
 */
export const DEFAULT_TASKS_DIR = join(PROJECT_ROOT, 'src', 'families');

/**
 * Most items a step batch may hold; STEP_BATCH_MAX_ITEMS may lower it. The OpenAPI document states this ceiling, so a
 * batch a client builds from the document is never refused for its size on a server with the default.
 */
export const STEP_BATCH_CEILING = 256;

/** A true/false variable (`1` and `0` too). */
const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default(fallback)
    .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(7860),
  HOST: z.string().min(1).default('127.0.0.1'),
  ALLOWED_HOSTS: z.string().min(1).default(LOOPBACK_NAMES.join(',')),
  ALLOWED_ORIGINS: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  DATABASE_WAIT_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  SQLITE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  EPISODE_CACHE_SIZE: z.coerce.number().int().min(0).max(1_000_000).default(2048),
  TASKS_DIR: z.string().min(1).optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(256 * 1024),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose', 'silent']).default('log'),
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  ADMIN_API_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  CHAIN_KEY: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  CHAIN_RETIRED_KEYS_FILE: z.string().min(1).optional(),
  PRIVATE_SPLIT_KEY: z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  PRIVATE_SPLIT_RETIRED_KEYS_FILE: z.string().min(1).optional(),
  REQUIRE_API_KEY: flag('false'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000_000).optional(),
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(30),
  MAX_MESSAGE_LENGTH: z.coerce.number().int().min(1).max(LIMITS.messageLengthCeiling).default(2000),
  MAX_QUERY_LENGTH: z.coerce.number().int().min(1).max(LIMITS.queryLengthCeiling).default(200),
  STEP_BATCH_MAX_ITEMS: z.coerce.number().int().min(1).max(STEP_BATCH_CEILING).default(STEP_BATCH_CEILING),
  MAX_ACTIVE_EPISODES_PER_TENANT: z.coerce.number().int().min(0).max(10_000_000).default(1000),
  EPISODE_IDLE_TIMEOUT_MINUTES: z.coerce.number().int().min(0).max(525_600).default(1440),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(10_000).default(200),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  MAX_SESSIONS_PER_TENANT: z.coerce.number().int().min(1).max(100_000).default(32),
  BASELINE_RUNS_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(12),
  SESSION_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  LEDGER_CHECKPOINT_FILE: z.string().min(1).optional(),
  LEDGER_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(60_000),
  RETENTION_SWEEP_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(3_600_000),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(256),
  TRUSTED_PROXIES: z.string().optional(),
  METRICS_ALLOW_FROM: z.string().optional(),
  METRICS_TENANT_LABELS: flag('false'),
  WS_MAX_MESSAGES_PER_SECOND: z.coerce.number().int().min(0).max(1_000_000).default(2000),
  WS_MAX_PENDING_MESSAGES: z.coerce.number().int().min(1).max(100_000).default(64),
  WS_MAX_BUFFERED_BYTES: z.coerce.number().int().min(16 * 1024).max(1024 * 1024 * 1024).default(1024 * 1024),
});

/** The server's settings, validated once at boot; everything else reads this object, never process.env. */
export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  /** Which database DATABASE_URL names (database-url.ts). */
  databaseKind: DatabaseKind;
  /** PostgreSQL: connections per server process (the Prisma face has its own pool of the same size). */
  databasePoolSize: number;
  /** PostgreSQL: a statement running longer is cancelled (0: never). */
  databaseStatementTimeoutMs: number;
  /** PostgreSQL: how long start-up waits for the server to accept connections before it gives up, naming it. */
  databaseWaitMs: number;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  sqliteBusyTimeoutMs: number;
  /** Active episodes kept in memory between steps (least recently stepped dropped first); 0 turns the cache off. */
  episodeCacheSize: number;
  /** A folder of task files (`<id>.json`) to serve instead of the registered families' canonical instances; null: those. */
  tasksDir: string | null;
  bodyLimitBytes: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose' | 'silent';
  /** JSON lines, or text for a person; `auto` is text when stdout is a terminal and JSON otherwise. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** Host names (`Host` header, and `Origin` host) the server answers to; `*` for any. */
  allowedHosts: string[] | '*';
  /** Further browser origins allowed (exact `scheme://host[:port]`), beyond those on allowed hosts. */
  allowedOrigins: string[];
  /** The key for /admin routes; unset, the admin API is off. */
  adminApiKey: string | null;
  /** When true, requests without an API key get 401 instead of acting as the public tenant. */
  requireApiKey: boolean;
  /**
   * The secret the hash chain is keyed with (HMAC), and retired ones older episodes were chained with. Null in open
   * mode without CHAIN_KEY: a key file is then kept beside the database.
   */
  chainKey: string | null;
  chainRetiredKeys: string[];
  /**
   * The secret test instances of the private split are drawn with (mixed into the seed: docs/evaluation.md, "The
   * private test split"), and retired ones older private episodes were drawn with. Null: no private split; episodes
   * drawn with a retired key still replay and verify.
   */
  privateSplitKey: string | null;
  privateSplitRetiredKeys: string[];
  /** Requests (HTTP requests and /ws messages) per minute per tenant; 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Failed authentications per minute per client address before it gets 429 without a lookup; 0: no limit. */
  authFailuresPerMinute: number;
  /** Longest accepted reply and search query (the action schema's ceilings are hard upper bounds). */
  /** Most items a `POST /step/batch` (or a /ws step_batch message) may hold. */
  stepBatchMaxItems: number;
  maxMessageLength: number;
  maxQueryLength: number;
  /** Active episodes a tenant may hold at once; 0 means no cap. */
  maxActiveEpisodesPerTenant: number;
  /** Active episodes untouched this long are marked expired (kept, still auditable); 0 never expires them. */
  episodeIdleTimeoutMinutes: number;
  /** A request must be received and answered within this time; headers within HEADERS_TIMEOUT_MS. */
  requestTimeoutMs: number;
  /** On shutdown, how long a listening server still reads requests already on their way before closing idle connections. */
  shutdownGraceMs: number;
  headersTimeoutMs: number;
  /** Concurrent WebSocket sessions, and MCP sessions, a tenant may hold (each counted on its own). */
  maxSessionsPerTenant: number;
  /** POST /baseline runs a tenant may start in any hour (one at a time); 0: no hourly cap. */
  baselineRunsPerHour: number;
  /** A WebSocket or MCP session with no message for this long is closed (its episode stays resumable). */
  sessionIdleTimeoutMs: number;
  /**
   * Where signed checkpoints of every tenant ledger's head are appended (default: beside the database, `<db>.ledger-checkpoints`);
   * keep it on another volume, or ship the log, which carries each checkpoint too.
   */
  ledgerCheckpointFile: string;
  /** How often a checkpoint is written when a ledger moved (and always at shutdown). */
  ledgerCheckpointIntervalMs: number;
  /** How often the retention sweep purges finished episodes past their tenant's retention period (docs/operating.md). */
  retentionSweepIntervalMs: number;
  /** Open connections the server holds at once, and per client address; past either, 503 and closed. */
  maxConnections: number;
  maxConnectionsPerClient: number;
  /**
   * Addresses and CIDR ranges of reverse proxies whose X-Forwarded-For/-Proto/-Host are believed (none by default):
   * the client address used for limits and logs, and the scheme and host a browser Origin is compared with.
   */
  trustedProxies: string[];
  /**
   * Client addresses and CIDR ranges that may read GET /metrics without a key (none by default: the admin key only).
   * The address is the one TRUSTED_PROXIES gives (a forwarded one only from a trusted proxy).
   */
  metricsAllowFrom: string[];
  /** Whether the step and reset counters carry a `tenant` label (one series per tenant, action and transport). */
  metricsTenantLabels: boolean;
  /** /ws messages a connection may send a second (1 s of burst); faster ones wait unread. 0: no cap. */
  wsMaxMessagesPerSecond: number;
  /** /ws messages read but not yet answered, per connection; at this many, reading pauses. */
  wsMaxPendingMessages: number;
  /** Bytes of /ws answers a connection may leave unread; past it, no more are produced until the client reads. */
  wsMaxBufferedBytes: number;
}

/** Never echoed in error messages; each may also be given as a file (`<NAME>_FILE`). */
const SECRET_VARIABLES = ['ADMIN_API_KEY', 'CHAIN_KEY', 'PRIVATE_SPLIT_KEY', 'DATABASE_URL'] as const;

/** DI token for the validated configuration. */
export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Reads and checks the environment; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const secrets = readSecretVariables(env, SECRET_VARIABLES);
  const parsed = envSchema.safeParse({ ...present, ...secrets.values });
  const problems = [...secrets.problems];
  if (!parsed.success) {
    problems.push(
      ...parsed.error.issues.map((i) => {
        const name = String(i.path[0]);
        const shown = (SECRET_VARIABLES as readonly string[]).includes(name) ? '(hidden)' : JSON.stringify(present[name]);
        return `${name}=${shown}: ${i.message}`;
      }),
    );
  }
  const proxies = addressList('TRUSTED_PROXIES', present.TRUSTED_PROXIES);
  const scrapers = addressList('METRICS_ALLOW_FROM', present.METRICS_ALLOW_FROM);
  problems.push(...proxies.problems, ...scrapers.problems);
  let databaseUrl = '';
  try {
    databaseUrl = resolveDatabaseUrl(secrets.values.DATABASE_URL);
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const retired = e.CHAIN_RETIRED_KEYS_FILE ? readSecretLines(e.CHAIN_RETIRED_KEYS_FILE, 'CHAIN_RETIRED_KEYS_FILE') : { secrets: [] };
  const privateRetired = e.PRIVATE_SPLIT_RETIRED_KEYS_FILE
    ? readSecretLines(e.PRIVATE_SPLIT_RETIRED_KEYS_FILE, 'PRIVATE_SPLIT_RETIRED_KEYS_FILE')
    : { secrets: [] };
  problems.push(
    ...(retired.problem ? [retired.problem] : []),
    ...(privateRetired.problem ? [privateRetired.problem] : []),
    ...modeProblems(e),
    // A key file is made beside a SQLite file; servers sharing a PostgreSQL database must share one key, given to
    // each of them (the key never lives in the database it protects).
    ...(databaseKindOf(databaseUrl) === 'postgresql' && !e.CHAIN_KEY
      ? ['DATABASE_URL names a PostgreSQL server: set CHAIN_KEY (or CHAIN_KEY_FILE), the same on every server process sharing it (openssl rand -hex 32)']
      : []),
    ...privateSplitProblems(e, [...retired.secrets, ...(e.CHAIN_KEY ? [e.CHAIN_KEY] : [])], privateRetired.secrets),
  );
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    port: e.PORT,
    host: e.HOST,
    allowedHosts: listOrAny(e.ALLOWED_HOSTS),
    allowedOrigins: e.ALLOWED_ORIGINS ? e.ALLOWED_ORIGINS.split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean) : [],
    databaseUrl,
    databaseKind: databaseKindOf(databaseUrl),
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseStatementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    databaseWaitMs: e.DATABASE_WAIT_MS,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    sqliteBusyTimeoutMs: e.SQLITE_BUSY_TIMEOUT_MS,
    episodeCacheSize: e.EPISODE_CACHE_SIZE,
    tasksDir: e.TASKS_DIR === undefined ? null : resolve(e.TASKS_DIR),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    adminApiKey: e.ADMIN_API_KEY ?? null,
    requireApiKey: e.REQUIRE_API_KEY,
    chainKey: e.CHAIN_KEY ?? null,
    chainRetiredKeys: retired.secrets,
    privateSplitKey: e.PRIVATE_SPLIT_KEY ?? null,
    privateSplitRetiredKeys: privateRetired.secrets,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE ?? (e.REQUIRE_API_KEY ? DEFAULT_SHARED_RATE_LIMIT_PER_MINUTE : 0),
    authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE,
    maxMessageLength: e.MAX_MESSAGE_LENGTH,
    stepBatchMaxItems: e.STEP_BATCH_MAX_ITEMS,
    maxQueryLength: e.MAX_QUERY_LENGTH,
    maxActiveEpisodesPerTenant: e.MAX_ACTIVE_EPISODES_PER_TENANT,
    episodeIdleTimeoutMinutes: e.EPISODE_IDLE_TIMEOUT_MINUTES,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    maxSessionsPerTenant: e.MAX_SESSIONS_PER_TENANT,
    baselineRunsPerHour: e.BASELINE_RUNS_PER_HOUR,
    sessionIdleTimeoutMs: e.SESSION_IDLE_TIMEOUT_MS,
    // Beside the SQLite file; on PostgreSQL, in the server's own data folder (each replica keeps its own).
    ledgerCheckpointFile: resolve(
      e.LEDGER_CHECKPOINT_FILE ?? (databaseKindOf(databaseUrl) === 'postgresql' ? 'data/postgresql.ledger-checkpoints' : `${databaseUrl.slice('file:'.length)}.ledger-checkpoints`),
    ),
    ledgerCheckpointIntervalMs: e.LEDGER_CHECKPOINT_INTERVAL_MS,
    retentionSweepIntervalMs: e.RETENTION_SWEEP_INTERVAL_MS,
    maxConnections: e.MAX_CONNECTIONS,
    maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT,
    trustedProxies: proxies.entries,
    metricsAllowFrom: scrapers.entries,
    metricsTenantLabels: e.METRICS_TENANT_LABELS,
    wsMaxMessagesPerSecond: e.WS_MAX_MESSAGES_PER_SECOND,
    wsMaxPendingMessages: e.WS_MAX_PENDING_MESSAGES,
    wsMaxBufferedBytes: e.WS_MAX_BUFFERED_BYTES,
  };
}

/** TRUSTED_PROXIES, METRICS_ALLOW_FROM: comma-separated IP addresses and CIDR ranges (`10.0.0.5`, `172.30.0.0/24`, `::1`, `fd00::/8`). */
function addressList(name: string, value: string | undefined): { entries: string[]; problems: string[] } {
  const { entries, bad } = parseAddressList(value);
  return {
    entries,
    problems: bad.length === 0 ? [] : [`${name}=${JSON.stringify(value)}: not an IP address or CIDR range: ${bad.join(', ')}`],
  };
}

/**
 * A shared deployment (keys required) that could not be used or audited is refused at start: without the admin
 * key no tenant or key can ever be created, and without a chain key the tamper evidence would rest on a key file
 * anyone with the data folder can read.
 */
function modeProblems(e: z.infer<typeof envSchema>): string[] {
  if (!e.REQUIRE_API_KEY) return [];
  const problems: string[] = [];
  if (!e.ADMIN_API_KEY) {
    problems.push('REQUIRE_API_KEY=true needs ADMIN_API_KEY (or ADMIN_API_KEY_FILE): without it no tenant or key can be created');
  }
  if (!e.CHAIN_KEY) {
    problems.push('REQUIRE_API_KEY=true needs CHAIN_KEY (or CHAIN_KEY_FILE): the secret that keys the tamper-evident hash chain');
  }
  return problems;
}

/**
 * The private split's secret is its own: one shared with the hash chain would let whoever holds the chain key (for
 * a verification elsewhere, say) draw the private instances, and short retired lines are typos more often than keys.
 */
function privateSplitProblems(e: z.infer<typeof envSchema>, chainKeys: string[], retired: string[]): string[] {
  const problems: string[] = [];
  if (e.PRIVATE_SPLIT_KEY !== undefined && chainKeys.includes(e.PRIVATE_SPLIT_KEY)) {
    problems.push('PRIVATE_SPLIT_KEY=(hidden): must differ from CHAIN_KEY and the retired chain keys');
  }
  const short = retired.filter((secret) => secret.length < 32).length;
  if (short > 0) problems.push(`PRIVATE_SPLIT_RETIRED_KEYS_FILE=${JSON.stringify(e.PRIVATE_SPLIT_RETIRED_KEYS_FILE)}: ${short} line(s) shorter than 32 characters`);
  return problems;
}

function listOrAny(value: string): string[] | '*' {
  const items = value.split(',').map((item) => item.trim().toLowerCase()).filter(Boolean);
  return items.includes('*') ? '*' : items;
}
