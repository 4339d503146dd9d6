import { Injectable, Logger } from '@nestjs/common';
import { Database } from '../database/database.service';
import { ChainKeys } from './chain-keys';
import { CHAIN_SCHEMES, legacySeal } from './hash-chain';

/** What one sealing did: how many episodes of each tenant were sealed, and with which key. */
export interface LegacySealing {
  keyId: string;
  sealed: number;
  byTenant: Record<string, number>;
}

/**
 * Episodes chained before the keyed chain (sha256-v1, unkeyed, from release 0.1) are sealed once: an HMAC under
 * the chain key over each one's metadata and its chain as it stands, after which its later rows are keyed, so
 * rewriting their past is as detectable as for new episodes.
 *
 * Sealing happens only when the admin asks for it (POST /admin/ledger/enroll), right after the upgrade, and
 * each sealing is recorded in the admin log. It never happens by itself: a rule such as "seal while no episode is
 * keyed yet" is a condition the database controls, so someone who can write the file (but has no key) could
 * re-chain episodes without the key, delete the seals and wait for a restart to have the server sign the forgery.
 * An unsealed legacy episode is reported by verify as not chained by this server.
 */
@Injectable()
export class LegacyChainSeals {
  private readonly logger = new Logger(LegacyChainSeals.name);

  constructor(
    private readonly database: Database,
    private readonly keys: ChainKeys,
  ) {}

  /** Seals every unsealed legacy episode with the current key, and records it in the admin log per tenant. */
  async sealUnsealed(): Promise<LegacySealing> {
    const key = this.keys.current;
    const byTenant = await this.database.serialized((db) =>
      db.$transaction(async (tx) => {
        const episodes = await tx.episode.findMany({
          where: { chainScheme: CHAIN_SCHEMES.legacy, legacySeal: null },
          select: { id: true, tenantId: true, apiKeyId: true, taskId: true, taskVersion: true, seed: true, agent: true, runLabel: true, tagsJson: true, chainHead: true, createdAt: true, updatedAt: true, splitSource: true, splitKeyId: true, _count: { select: { actions: true } } },
        });
        const counts: Record<string, number> = {};
        for (const episode of episodes) {
          const { updatedAt, ...stored } = episode;
          const metadata = { ...stored, episodeId: episode.id, tags: JSON.parse(episode.tagsJson) as string[] };
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
          // The rows it gets from now on are keyed with this key; updated_at is kept as it was (Prisma would move it).
          await tx.episode.updateMany({ where: { id: episode.id, tenantId: episode.tenantId }, data: { chainKeyId: key.id, updatedAt } });
          counts[episode.tenantId] = (counts[episode.tenantId] ?? 0) + 1;
        }
        for (const [tenantId, sealed] of Object.entries(counts)) {
          await tx.adminEvent.create({ data: { action: 'chain.legacy_sealed', tenantId, keyId: null, detail: JSON.stringify({ episodes: String(sealed), chain_key_id: key.id }) } });
        }
        return counts;
      }),
    );
    const sealed = Object.values(byTenant).reduce((sum, n) => sum + n, 0);
    if (sealed > 0) this.logger.log(`sealed ${sealed} episode(s) chained before the keyed chain, with key ${key.id}`);
    return { keyId: key.id, sealed, byTenant };
  }
}
