import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { Database } from '../database/database.service';
import { ChainKeys } from './chain-keys';
import { CHAIN_SCHEMES, legacySeal } from './hash-chain';

/**
 * Episodes chained before the keyed chain (sha256-v1, unkeyed) are sealed once, at the first start of the keyed
 * release: an HMAC under the chain key over each one's metadata and its chain as it stands, and its later rows
 * are keyed. From then on, rewriting their past rows or metadata is as detectable as for new episodes.
 * Sealing happens only while no episode has a keyed chain yet: once the keyed chain is in use, an episode that
 * claims the unkeyed scheme without a seal is a downgrade, and verify reports it.
 */
@Injectable()
export class LegacyChainSeals implements OnModuleInit {
  private readonly logger = new Logger(LegacyChainSeals.name);

  constructor(
    private readonly database: Database,
    private readonly keys: ChainKeys,
  ) {}

  async onModuleInit(): Promise<void> {
    const sealed = await this.sealUnsealed();
    if (sealed > 0) this.logger.log(`sealed ${sealed} episode(s) chained before the keyed chain, with key ${this.keys.current.id}`);
  }

  /** Seals every unsealed legacy episode, unless the keyed chain is already in use; returns how many. */
  sealUnsealed(): Promise<number> {
    const key = this.keys.current;
    return this.database.serialized((db) =>
      db.$transaction(async (tx) => {
        if ((await tx.episode.count({ where: { chainScheme: CHAIN_SCHEMES.keyed } })) > 0) return 0;
        const episodes = await tx.episode.findMany({
          where: { chainScheme: CHAIN_SCHEMES.legacy, legacySeal: null },
          select: { id: true, tenantId: true, apiKeyId: true, taskId: true, taskVersion: true, seed: true, agent: true, runLabel: true, tagsJson: true, chainHead: true, createdAt: true, _count: { select: { actions: true } } },
        });
        for (const episode of episodes) {
          const metadata = { ...episode, episodeId: episode.id, tags: JSON.parse(episode.tagsJson) as string[] };
          const sealedSteps = episode._count.actions;
          await tx.legacyChainSeal.create({
            data: {
              episodeId: episode.id,
              tenantId: episode.tenantId,
              keyId: key.id,
              sealedSteps,
              sealedHead: episode.chainHead,
              seal: legacySeal(key, metadata, sealedSteps, episode.chainHead),
            },
          });
          // The rows it gets from now on are keyed with this key (raw: Prisma would also move updated_at).
          await tx.$executeRawUnsafe('UPDATE episodes SET chain_key_id = ? WHERE id = ? AND tenant_id = ?', key.id, episode.id, episode.tenantId);
        }
        return episodes.length;
      }),
    );
  }
}
