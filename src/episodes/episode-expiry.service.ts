import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../common/clock';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ReplicaCoordination } from '../replicas';
import { EpisodeRepository } from './episode.repository';

/** How often the sweep runs at most; it also runs at start-up. */
const MAX_SWEEP_INTERVAL_MS = 60_000;

/**
 * Marks active episodes that nobody has stepped for EPISODE_IDLE_TIMEOUT_MINUTES as `expired`. They are kept
 * (still listed, exported and verifiable) but can no longer be stepped, and they stop counting towards the
 * tenant's cap on active episodes.
 *
 * Replicas sharing a database: every one sweeps once at start-up (before it serves, as above; the sweep is one
 * idempotent statement), and then only the leader sweeps (docs/replicas.md).
 */
@Injectable()
export class EpisodeExpiryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EpisodeExpiryService.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly episodes: EpisodeRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly replicas: ReplicaCoordination,
  ) {}

  /** The first sweep finishes before the app serves, so no request sees an episode that has already timed out. */
  async onApplicationBootstrap(): Promise<void> {
    const timeoutMs = this.config.episodeIdleTimeoutMinutes * 60_000;
    if (timeoutMs === 0) return;
    const every = Math.min(MAX_SWEEP_INTERVAL_MS, Math.max(1_000, Math.floor(timeoutMs / 4)));
    this.timer = setInterval(() => {
      if (this.replicas.isLeader()) void this.sweepLoggingFailure();
    }, every);
    this.timer.unref();
    await this.sweepLoggingFailure();
  }

  private async sweepLoggingFailure(): Promise<void> {
    try {
      await this.sweep();
    } catch (error) {
      this.logger.error(`expiry sweep failed: ${(error as Error).message}`);
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** One sweep; returns how many episodes it expired. */
  async sweep(now: Date = this.clock.now()): Promise<number> {
    const timeoutMs = this.config.episodeIdleTimeoutMinutes * 60_000;
    if (timeoutMs === 0) return 0;
    const expired = await this.episodes.expireIdleEpisodesOfAllTenants(new Date(now.getTime() - timeoutMs));
    if (expired > 0) this.logger.log(`expired ${expired} idle episode(s)`);
    return expired;
  }
}
