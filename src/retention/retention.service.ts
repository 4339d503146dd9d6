import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import { ConflictError, NotFoundError } from '../common/errors/domain-errors';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { EpisodeRepository, type TenantDeletionRecord } from '../episodes';
import { ReplicaCoordination } from '../replicas';
import { KeyRevocations } from '../tenants/key-revocations';
import { PUBLIC_TENANT } from '../tenants/tenant.constants';
import { TenantRepository } from '../tenants/tenant.repository';
import { TenantsService } from '../tenants/tenants.service';
import type { TenantDto } from '../tenants/dto/tenant.dto';
import type { DeletedTenantDto, RetentionSweepDto, TenantPurgeDto } from './dto/retention.dto';

/** Episodes purged (or deleted with their tenant) per write: each batch is one transaction, short enough not to hold up steps for long. */
const PURGE_BATCH = 200;

/**
 * Retention and tenant deletion. A tenant with a retention period has its finished episodes purged once they are
 * that many days past their last write, by a sweep every RETENTION_SWEEP_INTERVAL_MS (and on demand, POST
 * /admin/retention/sweep). Purges go through the one documented path that may delete log and ledger rows
 * (episodes/purge): each is a MACed ledger entry and an admin-log event, so what remains still verifies.
 */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionService.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RetentionSweepDto> | null = null;
  private resuming: Promise<void> = Promise.resolve();

  constructor(
    private readonly episodes: EpisodeRepository,
    private readonly tenantRows: TenantRepository,
    private readonly tenants: TenantsService,
    private readonly revocations: KeyRevocations,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly replicas: ReplicaCoordination,
  ) {}

  /**
   * Replicas sharing a database: the leader sweeps (and finishes the deletions a stopped replica left, each one
   * only where no other replica is running it); a sweep asked for with POST /admin/retention/sweep runs on the
   * replica asked, its purges one write at a time among everyone's (docs/replicas.md).
   */
  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (!this.replicas.isLeader()) return;
      void this.sweepLoggingFailure();
      void this.resumeDeletionsLoggingFailure();
    }, this.config.retentionSweepIntervalMs);
    this.timer.unref();
    this.resuming = this.replicas.isLeader() ? this.resumeDeletionsLoggingFailure() : Promise.resolve();
  }

  private resumeDeletionsLoggingFailure(): Promise<void> {
    return this.resumeDeletions().catch((error: unknown) => this.logger.error(`finishing a tenant deletion failed: ${(error as Error).message}`));
  }

  /** Settles once the deletions cut short by the last stop are finished (started at bootstrap). */
  deletionsResumed(): Promise<void> {
    return this.resuming;
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One sweep over every tenant with a retention period; a sweep already running is joined, not doubled. */
  sweep(): Promise<RetentionSweepDto> {
    this.running ??= this.sweepOnce().finally(() => (this.running = null));
    return this.running;
  }

  private async sweepOnce(): Promise<RetentionSweepDto> {
    const at = this.clock.now();
    const tenants: TenantPurgeDto[] = [];
    for (const tenant of await this.tenantRows.withRetention()) {
      const purged: TenantPurgeDto = { tenant: tenant.slug, retention_days: tenant.retentionDays!, episodes: 0, steps: 0, ledger_entries: 0 };
      let skipped = 0;
      for (;;) {
        const record = await this.episodes.purgeFinished(tenant.id, PURGE_BATCH);
        if (record.retentionDays === null) {
          this.logger.error(`retention: tenant ${tenant.slug} has retention_days ${tenant.retentionDays} but no signed period in its ledger; nothing purged (was the column changed outside the server?)`);
          break;
        }
        purged.retention_days = record.retentionDays;
        purged.episodes += record.episodes;
        purged.steps += record.steps;
        purged.ledger_entries += record.ledgerEntries;
        skipped += record.skipped;
        // A short batch was the last; a batch that purged nothing would select the same rows again.
        if (record.episodes + record.skipped < PURGE_BATCH || record.episodes === 0) break;
      }
      if (skipped > 0) {
        this.logger.error(`retention: ${skipped} episode(s) of tenant ${tenant.slug} look finished and old in their rows but not in their signed ledger entries; kept (run GET /ledger/verify)`);
      }
      if (purged.episodes > 0) this.logger.log(`retention: purged ${purged.episodes} episode(s) of tenant ${tenant.slug}`);
      tenants.push(purged);
    }
    return { at: at.toISOString(), tenants };
  }

  /** Sets (null: clears) a tenant's retention period: signed in its ledger, which is what the sweep acts on. */
  async setRetention(slug: string, days: number | null): Promise<TenantDto> {
    const tenant = await this.tenants.requireTenant(slug);
    await this.episodes.setRetention(tenant.id, days);
    return (await this.tenants.list()).find((t) => t.id === tenant.id)!;
  }

  private async sweepLoggingFailure(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.logger.error(`retention sweep failed: ${(error as Error).message}`);
    }
  }

  /**
   * Removes a tenant and all its data once `confirm` repeats its slug, a batch of episodes per write
   * (episodes/purge/tenant-deletion.ts) so that other tenants are served meanwhile. Its keys stop working at once
   * (open sessions end, remembered lookups are dropped). The built-in public tenant cannot be deleted.
   */
  async deleteTenant(slug: string, confirm: string): Promise<DeletedTenantDto> {
    const tenant = await this.tenants.requireTenant(slug);
    if (tenant.id === PUBLIC_TENANT.id) throw new ConflictError('the public tenant is built in and cannot be deleted (a retention period purges its episodes)');
    // The tenant exists, and the confirmation names another: the request does not match what it would delete.
    if (confirm !== slug) throw new ConflictError(`confirm must repeat the tenant's slug ("${slug}") to delete it and all its data; nothing was deleted`);
    const deleted = await this.replicas.exclusively(deletionLock(tenant.id), () => this.deleteTenantData(tenant.id, slug, false));
    // Being deleted by another request (on this replica or another): as when that one had begun first.
    if (!deleted.ran) throw new NotFoundError(`no tenant "${slug}": its deletion has already begun`);
    const record = deleted.value;
    return { tenant: slug, episodes: record.episodes, steps: record.steps, keys: record.keys, runs: record.runs, ledger_seq: record.ledgerHead?.seq ?? null };
  }

  /** Finishes the deletions a stop cut short (tenants still marked deleting), one after another, in the background. */
  private async resumeDeletions(): Promise<void> {
    for (const tenant of await this.tenantRows.beingDeleted()) {
      // Skipped while the replica that began it (or already resumed it) goes on with it; and once holding the lock,
      // only if it is still unfinished (another replica may have finished it since the list was read).
      await this.replicas.exclusively(deletionLock(tenant.id), async () => {
        if (!(await this.tenantRows.beingDeleted()).some((still) => still.id === tenant.id)) return;
        this.logger.warn(`tenant ${tenant.slug}: finishing the deletion begun at ${tenant.deletingAt!.toISOString()}`);
        await this.deleteTenantData(tenant.id, tenant.slug, true);
      });
    }
  }

  private async deleteTenantData(tenantId: string, slug: string, resumed: boolean): Promise<TenantDeletionRecord> {
    const keys = await this.tenantRows.listKeys(tenantId);
    const record = await this.episodes.beginTenantDeletion(tenantId, slug, resumed);
    for (const key of keys) this.revocations.revoked(key.id);
    let batches = 0;
    while ((await this.episodes.deleteTenantEpisodes(tenantId, PURGE_BATCH)) > 0) batches++;
    await this.episodes.finishTenantDeletion(tenantId, slug, record);
    this.logger.log(`tenant ${slug} deleted in ${batches + 2} write(s): ${record.episodes} episode(s), ${record.steps} step(s), ${record.keys} key(s), ${record.runs} run(s)`);
    return record;
  }
}

const deletionLock = (tenantId: string) => `tenant-deletion:${tenantId}`;
