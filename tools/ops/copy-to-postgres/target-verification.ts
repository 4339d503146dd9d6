import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import pino from 'pino';
import type { Principal } from '../../../src/access/principal';
import { createApp } from '../../../src/app/create-app';
import { AuditService } from '../../../src/audit/audit.service';
import { LedgerAuditService } from '../../../src/audit/ledger-audit.service';
import { loadConfig } from '../../../src/config/app-config';

/** Episodes read per page while walking the target's episodes. */
const PAGE = 1000;
/** Failures listed in the report at most (all are counted). */
const MAX_LISTED = 20;

export interface VerificationReport {
  ok: boolean;
  episodes: { checked: number; failed: number; failures: { tenant_id: string; episode_id: string; problem: string }[] };
  ledgers: { tenant: string; entries: number; episodes: number; ledger_ok: boolean; checkpoint_ok: boolean; checkpoint: { seq: number; at: string } | null; problems: string[] }[];
  seconds: number;
}

export interface VerificationInput {
  targetUrl: string;
  /** The chain key the PostgreSQL server will be given (the data's current key). */
  chainKey: string;
  /** The PostgreSQL server's checkpoint file, as the copy left it. */
  checkpointFile: string;
  /** The environment the tool runs in: retired keys and the private split's keys are read from it as the server reads them. */
  env: Record<string, string | undefined>;
  concurrency: number;
}

/**
 * Verifies the copy with the server's own code, on the server as it will run: the real app (createApp) on the target
 * with the key it will be given, its ledger audit over every tenant (GET /ledger/verify's) and its episode verifier
 * over every episode (GET /episodes/{id}/verify's: chain, replay through the engine, ledger entries). The app is never
 * listened on, and is kept from writing: no idle expiry, no retention sweep or checkpoint in the minutes it runs, and
 * the checkpoint it writes when it closes goes to a scratch copy of the checkpoint file.
 */
export async function verifyTarget(input: VerificationInput): Promise<VerificationReport> {
  const startedAt = performance.now();
  const scratch = mkdtempSync(join(tmpdir(), 'supportdesk-copy-verify-'));
  try {
    const checkpoints = join(scratch, 'ledger-checkpoints');
    if (existsSync(input.checkpointFile)) copyFileSync(input.checkpointFile, checkpoints);
    // The target and the key are given here; the same given as files too would be a conflict to loadConfig.
    const env = Object.fromEntries(Object.entries(input.env).filter(([name]) => !['DATABASE_URL_FILE', 'CHAIN_KEY_FILE'].includes(name)));
    const config = loadConfig({
      ...env,
      DATABASE_URL: input.targetUrl,
      CHAIN_KEY: input.chainKey,
      LEDGER_CHECKPOINT_FILE: checkpoints,
      LEDGER_CHECKPOINT_INTERVAL_MS: '86400000',
      RETENTION_SWEEP_INTERVAL_MS: '86400000',
      EPISODE_IDLE_TIMEOUT_MINUTES: '0',
      LOG_LEVEL: 'warn',
    });
    // The app's log goes to stderr: stdout carries the tool's one JSON line.
    const app = await createApp(config, { logDestination: pino.destination({ dest: 2, sync: true }) });
    try {
      const ledgers = await app.get(LedgerAuditService, { strict: false }).verify({ kind: 'admin' });
      const episodes = await verifyEveryEpisode(input, app.get(AuditService, { strict: false }));
      const ok = episodes.failed === 0 && ledgers.every((l) => l.ledger_ok && l.checkpoint_ok);
      return { ok, episodes, ledgers, seconds: seconds(startedAt) };
    } finally {
      await app.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Every episode of the target, `concurrency` at a time, as a reader of its tenant sees it (no key's alias space). */
async function verifyEveryEpisode(input: VerificationInput, audit: AuditService): Promise<VerificationReport['episodes']> {
  const result: VerificationReport['episodes'] = { checked: 0, failed: 0, failures: [] };
  const client = new Client({ connectionString: input.targetUrl });
  await client.connect();
  try {
    for (let after = 0; ; ) {
      const page = await client.query<{ serial: number; id: string; tenant_id: string }>(
        'SELECT serial, id, tenant_id FROM episodes WHERE serial > $1 ORDER BY serial LIMIT $2',
        [after, PAGE],
      );
      if (page.rows.length === 0) break;
      let next = 0;
      const worker = async () => {
        for (let i = next++; i < page.rows.length; i = next++) {
          const episode = page.rows[i];
          const reader: Principal = { kind: 'tenant', tenantId: episode.tenant_id, keyId: null, scope: 'reader' };
          const report = await audit.verify(reader, episode.id);
          result.checked++;
          if (report.chain_ok && report.replay_ok && report.ledger_ok) continue;
          result.failed++;
          if (result.failures.length < MAX_LISTED) {
            result.failures.push({ tenant_id: episode.tenant_id, episode_id: episode.id, problem: report.problem ?? 'does not verify' });
          }
        }
      };
      await Promise.all(Array.from({ length: input.concurrency }, worker));
      after = Number(page.rows[page.rows.length - 1].serial);
    }
  } finally {
    await client.end();
  }
  return result;
}

function seconds(since: number): number {
  return Number(((performance.now() - since) / 1000).toFixed(2));
}
