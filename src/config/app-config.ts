import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../common/project-root';
import { z } from 'zod';
import { LIMITS } from '../engine/vocabulary';
import { resolveDatabaseUrl } from './database-url';

/** Where the task files live: seeds/tasks at the project root. */
export const DEFAULT_TASKS_DIR = join(PROJECT_ROOT, 'seeds', 'tasks');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(7860),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  SQLITE_SYNCHRONOUS: z.enum(['FULL', 'NORMAL']).default('FULL'),
  SQLITE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  EPISODE_CACHE_SIZE: z.coerce.number().int().min(0).max(1_000_000).default(2048),
  TASKS_DIR: z.string().min(1).default(DEFAULT_TASKS_DIR),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(50 * 1024 * 1024).default(256 * 1024),
  LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose', 'silent']).default('log'),
  ADMIN_API_KEY: z.string().min(24, 'must be at least 24 characters').optional(),
  REQUIRE_API_KEY: z
    .enum(['true', 'false', '1', '0'], { message: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000_000).default(6000),
  MAX_MESSAGE_LENGTH: z.coerce.number().int().min(1).max(LIMITS.messageLengthCeiling).default(2000),
  MAX_QUERY_LENGTH: z.coerce.number().int().min(1).max(LIMITS.queryLengthCeiling).default(200),
  MAX_ACTIVE_EPISODES_PER_TENANT: z.coerce.number().int().min(0).max(10_000_000).default(1000),
  EPISODE_IDLE_TIMEOUT_MINUTES: z.coerce.number().int().min(0).max(525_600).default(1440),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  MAX_SESSIONS_PER_TENANT: z.coerce.number().int().min(1).max(100_000).default(32),
  SESSION_IDLE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(300_000),
  MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(1).max(1_000_000).default(256),
});

/** The server's settings, validated once at boot; everything else reads this object, never process.env. */
export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string;
  sqliteSynchronous: 'FULL' | 'NORMAL';
  sqliteBusyTimeoutMs: number;
  /** Active episodes kept in memory between steps (least recently stepped dropped first); 0 turns the cache off. */
  episodeCacheSize: number;
  tasksDir: string;
  bodyLimitBytes: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug' | 'verbose' | 'silent';
  /** The key for /admin routes; unset, the admin API is off. */
  adminApiKey: string | null;
  /** When true, requests without an API key get 401 instead of acting as the public tenant. */
  requireApiKey: boolean;
  /** Requests per minute per tenant; 0 turns rate limiting off. */
  rateLimitPerMinute: number;
  /** Longest accepted reply and search query (the action schema's ceilings are hard upper bounds). */
  maxMessageLength: number;
  maxQueryLength: number;
  /** Active episodes a tenant may hold at once; 0 means no cap. */
  maxActiveEpisodesPerTenant: number;
  /** Active episodes untouched this long are marked expired (kept, still auditable); 0 never expires them. */
  episodeIdleTimeoutMinutes: number;
  /** A request must be received and answered within this time; headers within HEADERS_TIMEOUT_MS. */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Concurrent WebSocket sessions, and MCP sessions, a tenant may hold (each counted on its own). */
  maxSessionsPerTenant: number;
  /** A WebSocket or MCP session with no message for this long is closed (its episode stays resumable). */
  sessionIdleTimeoutMs: number;
  /** Open connections the server holds at once, and per client address; past either, 503 and closed. */
  maxConnections: number;
  maxConnectionsPerClient: number;
}

/** Never echoed in error messages. */
const SECRET_VARIABLES = new Set(['ADMIN_API_KEY']);

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
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const name = String(i.path[0]);
        const shown = SECRET_VARIABLES.has(name) ? '(hidden)' : JSON.stringify(present[name]);
        return `${name}=${shown}: ${i.message}`;
      }),
    );
  }
  const e = parsed.data;
  let databaseUrl: string;
  try {
    databaseUrl = resolveDatabaseUrl(e.DATABASE_URL);
  } catch (error) {
    throw new ConfigError([`DATABASE_URL: ${(error as Error).message}`]);
  }
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl,
    sqliteSynchronous: e.SQLITE_SYNCHRONOUS,
    sqliteBusyTimeoutMs: e.SQLITE_BUSY_TIMEOUT_MS,
    episodeCacheSize: e.EPISODE_CACHE_SIZE,
    tasksDir: resolve(e.TASKS_DIR),
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    logLevel: e.LOG_LEVEL,
    adminApiKey: e.ADMIN_API_KEY ?? null,
    requireApiKey: e.REQUIRE_API_KEY,
    rateLimitPerMinute: e.RATE_LIMIT_PER_MINUTE,
    maxMessageLength: e.MAX_MESSAGE_LENGTH,
    maxQueryLength: e.MAX_QUERY_LENGTH,
    maxActiveEpisodesPerTenant: e.MAX_ACTIVE_EPISODES_PER_TENANT,
    episodeIdleTimeoutMinutes: e.EPISODE_IDLE_TIMEOUT_MINUTES,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    headersTimeoutMs: e.HEADERS_TIMEOUT_MS,
    maxSessionsPerTenant: e.MAX_SESSIONS_PER_TENANT,
    sessionIdleTimeoutMs: e.SESSION_IDLE_TIMEOUT_MS,
    maxConnections: e.MAX_CONNECTIONS,
    maxConnectionsPerClient: e.MAX_CONNECTIONS_PER_CLIENT,
  };
}
