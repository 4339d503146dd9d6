import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { canonicalJson } from '../../common/canonical-json';
import { Clock } from '../../common/clock';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../database/database.service';
import type { SqlConnection } from '../../database/sql-connection';
import { ChainKeys } from '../chain-keys';
import { hmac } from '../hash-chain';
import { selectLedgerHead, selectLedgerMacAt } from './ledger-rows';

export const CHECKPOINT_STATEMENTS = {
  selectTenantIds: `SELECT id FROM tenants ORDER BY id`,
  selectGapAt: `SELECT last_seq AS "lastSeq", last_mac AS "lastMac" FROM ledger_gaps WHERE tenant_id = @tenant AND first_seq <= @seq AND last_seq >= @seq`,
} as const;

/** Where a tenant's ledger stood at a moment, signed under the chain key. */
export interface Checkpoint {
  tenantId: string;
  seq: number;
  mac: string;
  at: string;
  keyId: string;
}

/**
 * Signed checkpoints of every tenant ledger's head, written outside the database: appended to a file of their own
 * (LEDGER_CHECKPOINT_FILE, mode 0600) and to the log, every LEDGER_CHECKPOINT_INTERVAL_MS when a ledger moved and at
 * shutdown. Someone who can write the database can cut a ledger's tail and make what is left consistent; they
 * cannot make it reach a checkpoint again (its MAC needs the key), so verify sees the cut.
 *
 * A checkpoint is written only when the ledger still contains the previous one: a ledger that no longer does has
 * been rewound, which is logged as an error and left for verify to report, never papered over by a new checkpoint.
 */
@Injectable()
export class LedgerCheckpoints implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LedgerCheckpoints');
  private readonly latestByTenant = new Map<string, Checkpoint>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly database: Database,
    private readonly keys: ChainKeys,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    for (const checkpoint of this.readFile()) this.latestByTenant.set(checkpoint.tenantId, checkpoint);
    this.timer = setInterval(() => void this.writeLoggingFailure(), this.config.ledgerCheckpointIntervalMs);
    this.timer.unref();
  }

  /** Before the database closes (its own hook runs at onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.writeLoggingFailure();
  }

  /** The newest valid checkpoint of a tenant's ledger, or null when none was written. */
  latest(tenantId: string): Checkpoint | null {
    return this.latestByTenant.get(tenantId) ?? null;
  }

  /**
   * Writes a checkpoint of every ledger that moved since its last one; returns what was written. A checkpoint is
   * published outside the database, so it must only name entries that are durable: what was read is published only
   * once `Database.durable()` says every batch committed so far is (steps are visible a moment before their sync
   * returns).
   */
  async write(): Promise<Checkpoint[]> {
    const at = this.clock.now().toISOString();
    const key = this.keys.current;
    const written: Checkpoint[] = [];
    await this.database.read(async (sql) => {
      for (const { id: tenantId } of await sql.all<{ id: string }>(CHECKPOINT_STATEMENTS.selectTenantIds)) {
        const head = await selectLedgerHead(sql, tenantId);
        const previous = this.latestByTenant.get(tenantId);
        if (!head || (previous && previous.seq === head.seq && previous.mac === head.mac)) continue;
        if (previous) {
          if (!(await stillContains(sql, tenantId, previous))) {
            this.logger.error(`the ledger of tenant ${tenantId} no longer contains its checkpoint at entry ${previous.seq} (${previous.at}): it was rewound or cut; no new checkpoint is written`);
            continue;
          }
        }
        written.push({ tenantId, seq: head.seq, mac: head.mac, at, keyId: key.id });
      }
    });
    if (written.length === 0) return [];
    await this.database.durable();
    const lines = written.map((c) => `${JSON.stringify({ ...checkpointRecord(c), sig: signature(this.keys.current.secret, c) })}\n`).join('');
    // Its folder exists beside a SQLite file; on PostgreSQL it may not yet.
    mkdirSync(dirname(this.config.ledgerCheckpointFile), { recursive: true, mode: 0o700 });
    appendFileSync(this.config.ledgerCheckpointFile, lines, { mode: 0o600 });
    for (const checkpoint of written) this.latestByTenant.set(checkpoint.tenantId, checkpoint);
    // The log is the second place outside the database that keeps them.
    this.logger.log(`ledger checkpoint: ${JSON.stringify(written.map(checkpointRecord))}`);
    return written;
  }

  private async writeLoggingFailure(): Promise<void> {
    try {
      await this.write();
    } catch (error) {
      this.logger.error(`ledger checkpoint failed: ${(error as Error).message}`);
    }
  }

  /** The file's checkpoints whose signature holds under a key this server has; others are reported and skipped. */
  private readFile(): Checkpoint[] {
    let text: string;
    try {
      text = readFileSync(this.config.ledgerCheckpointFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const valid: Checkpoint[] = [];
    let rejected = 0;
    for (const line of text.split('\n').filter(Boolean)) {
      try {
        const record = JSON.parse(line) as { tenant_id: string; seq: number; mac: string; at: string; key_id: string; sig: string };
        const checkpoint = { tenantId: record.tenant_id, seq: record.seq, mac: record.mac, at: record.at, keyId: record.key_id };
        const key = this.keys.byId(checkpoint.keyId);
        if (key && signature(key.secret, checkpoint) === record.sig) valid.push(checkpoint);
        else rejected++;
      } catch {
        rejected++;
      }
    }
    if (rejected > 0) this.logger.error(`${rejected} line(s) of ${this.config.ledgerCheckpointFile} are not checkpoints signed with a key this server holds`);
    return valid;
  }
}

/**
 * Whether the ledger still has the checkpointed entry, or a purge removed it: then its gap stands for it (and at
 * the gap's end, the MAC it kept must be the checkpointed one). Verify checks the purge entry behind the gap.
 */
async function stillContains(sql: SqlConnection, tenantId: string, checkpoint: Checkpoint): Promise<boolean> {
  const mac = await selectLedgerMacAt(sql, tenantId, checkpoint.seq);
  if (mac !== undefined) return mac === checkpoint.mac;
  const gap = await sql.get<{ lastSeq: number; lastMac: string }>(CHECKPOINT_STATEMENTS.selectGapAt, { tenant: tenantId, seq: checkpoint.seq });
  return gap !== undefined && (gap.lastSeq !== checkpoint.seq || gap.lastMac === checkpoint.mac);
}

function checkpointRecord(c: Checkpoint) {
  return { tenant_id: c.tenantId, seq: c.seq, mac: c.mac, at: c.at, key_id: c.keyId };
}

function signature(secret: string, c: Checkpoint): string {
  return hmac({ id: c.keyId, secret }, `supportdesk/ledger-checkpoint/v1\n${canonicalJson(checkpointRecord(c))}`);
}
