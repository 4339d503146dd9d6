import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { Database } from '../../database/database.service';
import { ChainKeys } from '../chain-keys';
import { LegacyChainSeals } from '../legacy-chain-seals';
import { enrolledEntry } from './ledger-entry';
import { appendLedgerEntry } from './ledger-statements';

export const ENROLLMENT_STATEMENTS = {
  selectUnenrolled: `SELECT e.id, e.tenant_id AS "tenantId", e.api_key_id AS "apiKeyId", e.task_id AS "taskId", e.task_version AS "taskVersion", e.seed,
       e.agent, e.run_label AS "runLabel", e.tags_json AS "tagsJson", e.created_at AS "createdAt", e.feedback, e.chain_scheme AS "chainScheme",
       e.chain_key_id AS "chainKeyId", e.chain_head AS "chainHead", e.status, e.split_source AS "splitSource", e.split_key_id AS "splitKeyId",
       (SELECT COUNT(*) FROM action_log a WHERE a.episode_serial = e.serial) AS steps
  FROM episodes e
 WHERE e.ledger_seq IS NULL AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.tenant_id = e.tenant_id AND l.episode_id = e.id)
 ORDER BY e.tenant_id, e.created_at, e.serial`,
  insertAdminEvent: `INSERT INTO admin_events (at, action, tenant_id, key_id, detail) VALUES (?, ?, ?, NULL, ?)`,
} as const;

interface UnenrolledRow {
  id: string;
  tenantId: string;
  apiKeyId: string | null;
  taskId: string;
  taskVersion: string;
  seed: number;
  agent: string | null;
  runLabel: string | null;
  tagsJson: string;
  createdAt: number;
  feedback: string;
  chainScheme: string;
  chainKeyId: string | null;
  chainHead: string;
  status: string;
  splitSource: string;
  splitKeyId: string | null;
  steps: number;
}

export interface Enrollment {
  keyId: string;
  sealed: number;
  enrolled: number;
}

/**
 * Brings the episodes stored before the tenant ledger into it, once, when the admin asks (POST /admin/ledger/enroll,
 * right after upgrading): first the unkeyed legacy episodes are sealed, then every episode that has no ledger entry
 * gets an "episode.enrolled" entry committing to its metadata, its feedback mode and its chain as it stands. Never
 * automatic: "enrol what is missing" at start-up would let someone who can write the file delete an episode's
 * entries and have the server vouch for the forged episode. Each enrolment is recorded in the admin log.
 */
@Injectable()
export class LedgerEnrollment {
  private readonly logger = new Logger(LedgerEnrollment.name);

  constructor(
    private readonly database: Database,
    private readonly keys: ChainKeys,
    private readonly seals: LegacyChainSeals,
    private readonly clock: Clock,
  ) {}

  async enrollAll(): Promise<Enrollment> {
    const sealing = await this.seals.sealUnsealed();
    const key = this.keys.current;
    const enrolled = await this.database.batched(async (sql) => {
      const rows = await sql.all<UnenrolledRow>(ENROLLMENT_STATEMENTS.selectUnenrolled);
      const at = this.clock.now();
      const byTenant = new Map<string, number>();
      for (const row of rows) {
        const metadata = {
          episodeId: row.id,
          tenantId: row.tenantId,
          taskId: row.taskId,
          taskVersion: row.taskVersion,
          seed: row.seed,
          agent: row.agent,
          runLabel: row.runLabel,
          tags: JSON.parse(row.tagsJson) as string[],
          apiKeyId: row.apiKeyId,
          createdAt: new Date(row.createdAt),
          splitSource: row.splitSource,
          splitKeyId: row.splitKeyId,
        };
        const facts = { metadata, feedback: row.feedback, chainScheme: row.chainScheme, chainKeyId: row.chainKeyId };
        await appendLedgerEntry(sql, key, row.tenantId, enrolledEntry(facts, row.steps, row.chainHead, row.status, at));
        byTenant.set(row.tenantId, (byTenant.get(row.tenantId) ?? 0) + 1);
      }
      for (const [tenantId, count] of byTenant) {
        await sql.run(ENROLLMENT_STATEMENTS.insertAdminEvent, [at, 'ledger.enrolled', tenantId, JSON.stringify({ episodes: String(count), chain_key_id: key.id })]);
      }
      return rows.length;
    });
    if (enrolled > 0) this.logger.log(`enrolled ${enrolled} episode(s) stored before the tenant ledger, with key ${key.id}`);
    return { keyId: key.id, sealed: sealing.sealed, enrolled };
  }
}
