import { APP_VERSION } from '../common/app-version';
import { LOOPBACK_NAMES, type AppConfig } from '../config/app-config';
import { families, familyIds, latestFamily } from '../families';
import { privateSplitKeyOf } from '../tasks/private-split';

export interface StartupSummary {
  /** One line for a person: where to go, what it stores where, who may call it, what it serves. */
  message: string;
  /** The same facts as fields, for a log collector. */
  fields: { address: string; docs: string; database: string; mode: 'open' | 'keys required'; reachable_from: 'loopback' | 'network'; families: string[]; private_split: { key_id: string; retired_keys: number } | null; version: string };
  /** Said apart, at warning level: anonymous access on a server others can reach. */
  warning: string | null;
}

/** What the server says once it is listening, as one line (main.ts logs it). */
export function startupSummary(config: AppConfig, databaseFile: string): StartupSummary {
  const address = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  const loopbackOnly = (LOOPBACK_NAMES as readonly string[]).includes(config.host) || config.host === 'localhost';
  const served = families().map((f) => `${f.id} g${f.generatorVersion}`);
  // Per family, the version drawing new episodes first, then the older ones kept for replays: "x g2 (g1 replays)".
  const byFamily = familyIds().map((id) => {
    const newest = latestFamily(id)!.generatorVersion;
    const older = families().filter((f) => f.id === id && f.generatorVersion !== newest).map((f) => `g${f.generatorVersion}`);
    return `${id} g${newest}${older.length > 0 ? ` (${older.join(', ')} replays)` : ''}`;
  });
  // The key id only, never the secret: which private split new private episodes draw from, if any.
  const privateSplit = config.privateSplitKey === null ? null : { key_id: privateSplitKeyOf(config.privateSplitKey).id, retired_keys: config.privateSplitRetiredKeys.length };
  const privateText = privateSplit ? `private test split ${privateSplit.key_id}` : 'no private test split';
  const mode = config.requireApiKey
    ? 'keys required'
    : `open mode (no API key needed${loopbackOnly ? ', loopback only' : `, reachable from other machines on ${config.host}`})`;
  return {
    message: `SupportDesk listening on ${address} (docs at ${address}/docs) · database ${databaseFile} · ${mode} · ${byFamily.length} task families: ${byFamily.join(', ')} · ${privateText} · v${APP_VERSION}`,
    fields: {
      address,
      docs: `${address}/docs`,
      database: databaseFile,
      mode: config.requireApiKey ? 'keys required' : 'open',
      reachable_from: loopbackOnly ? 'loopback' : 'network',
      families: served,
      private_split: privateSplit,
      version: APP_VERSION,
    },
    warning:
      config.requireApiKey || loopbackOnly
        ? null
        : `requests without an API key act as the built-in "public" tenant and the server listens on ${config.host}, reachable from other machines; ` +
          'set REQUIRE_API_KEY=true (with ADMIN_API_KEY and CHAIN_KEY) for a shared server',
  };
}
