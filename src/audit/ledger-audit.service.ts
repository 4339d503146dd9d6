import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import { ForbiddenError } from '../common/errors/domain-errors';
import { ChainKeys, committedGapsDigest, entryMacHolds, GapIndex, gapsDigest, LedgerCheckpoints, type LedgerEntry, type LedgerGap } from '../episodes';
import { TenantsService } from '../tenants/tenants.service';
import { AuditRepository } from './audit.repository';
import type { LedgerReportDto } from './dto/ledger-report.dto';

/** Entries read per database turn while walking a ledger. */
const PAGE = 1000;
/** Problems listed per tenant at most. */
const MAX_PROBLEMS = 20;

/**
 * Walks a tenant's whole ledger: entries in sequence from 1, each under a valid MAC over the one before (across a
 * purged stretch, over the MAC its gap kept, when a purge entry's MAC commits to that gap); every episode the
 * ledger saw created still exists and every episode is in the ledger; and the ledger still reaches the newest
 * checkpoint written outside the database. What it cannot see per episode (a deleted episode, a cut tail),
 * this sees for the tenant.
 */
@Injectable()
export class LedgerAuditService {
  constructor(
    private readonly audit: AuditRepository,
    private readonly tenants: TenantsService,
    private readonly keys: ChainKeys,
    private readonly checkpoints: LedgerCheckpoints,
  ) {}

  async verify(principal: Principal, tenantSlug?: string): Promise<LedgerReportDto[]> {
    if (principal.kind === 'tenant') {
      if (tenantSlug !== undefined) throw new ForbiddenError('only the admin key may choose a tenant (tenant=)');
      const slug = (await this.tenants.list()).find((t) => t.id === principal.tenantId)?.slug ?? principal.tenantId;
      return [await this.verifyTenant(principal.tenantId, slug)];
    }
    if (tenantSlug !== undefined) return [await this.verifyTenant(await this.tenants.tenantIdOf(tenantSlug), tenantSlug)];
    const reports: LedgerReportDto[] = [];
    for (const tenant of await this.tenants.list()) reports.push(await this.verifyTenant(tenant.id, tenant.slug));
    return reports;
  }

  private async verifyTenant(tenantId: string, slug: string): Promise<LedgerReportDto> {
    const checkpoint = this.checkpoints.latest(tenantId);
    let checkpointReached = checkpoint === null;
    const problems: string[] = [];
    // Decided apart from the listed problems, which are capped: a verdict never depends on which were listed.
    let ledgerBroken = false;
    const note = (problem: string) => {
      ledgerBroken = true;
      if (problems.length < MAX_PROBLEMS) problems.push(problem);
    };
    const noteCheckpoint = (problem: string) => {
      checkpointReached = false;
      if (problems.length < MAX_PROBLEMS) problems.push(problem);
    };
    const gaps = new GapIndex(await this.audit.ledgerGaps(tenantId));
    const crossedGaps = new Set<LedgerGap>();
    // Purge entries whose MAC holds and whose digest matches their gaps: the only thing that makes a gap pass.
    const confirmedPurges = new Set<number>();
    const inLedger = new Set<string>();
    let previous: LedgerEntry | null = null;
    // The MAC the next entry chains to, and its seq: the previous entry's, or the last MAC of the gap(s) after it.
    let expected = 1;
    let chainMac: string | null = null;
    let entries = 0;
    const cross = (from: number) => {
      const landing = gaps.after(from);
      if (!landing) return;
      for (const gap of landing.gaps) crossedGaps.add(gap);
      expected = landing.next;
      chainMac = landing.mac;
    };
    cross(1);
    for (let page = await this.audit.ledgerPage(tenantId, 0, PAGE); page.length > 0; page = await this.audit.ledgerPage(tenantId, previous!.seq, PAGE)) {
      for (const entry of page) {
        entries++;
        if (entry.seq !== expected) note(`ledger entries ${expected}-${entry.seq - 1} are missing`);
        const broken = entryMacHolds({ ...entry, previousMac: entry.seq === expected ? chainMac : null }, (id) => this.keys.byId(id));
        if (broken && entry.seq === expected) note(broken);
        if (entry.kind === 'episode.created' || entry.kind === 'episode.enrolled') inLedger.add(entry.episodeId);
        if (entry.kind === 'episodes.purged') {
          if (committedGapsDigest(entry.body) !== gapsDigest(gaps.all.filter((g) => g.purgeSeq === entry.seq))) {
            note(`the purged stretches of the ledger differ from what purge entry ${entry.seq} recorded`);
          } else if (!broken) {
            confirmedPurges.add(entry.seq);
          }
        }
        if (checkpoint && entry.seq === checkpoint.seq) {
          if (entry.mac === checkpoint.mac) checkpointReached = true;
          else noteCheckpoint(`ledger entry ${entry.seq} is not the one checkpointed at ${checkpoint.at}: the ledger was rewritten from there`);
        }
        previous = entry;
        expected = entry.seq + 1;
        chainMac = entry.mac;
        cross(expected);
      }
    }
    for (const gap of gaps.all) {
      if (!crossedGaps.has(gap)) note(`a purged stretch (entries ${gap.firstSeq}-${gap.lastSeq}) does not fit the ledger: it overlaps entries still there, or is not a stretch`);
      else if (!confirmedPurges.has(gap.purgeSeq)) note(`ledger entries ${gap.firstSeq}-${gap.lastSeq} are missing: no purge entry of the ledger records them`);
    }
    // A checkpoint inside a purged stretch: its entry is gone, and the gap (committed to by a MACed purge entry)
    // stands for it; at the stretch's end the gap kept its MAC, which must be the checkpointed one.
    const purgedCheckpoint = checkpoint ? gaps.containing(checkpoint.seq) : null;
    if (checkpoint && purgedCheckpoint && crossedGaps.has(purgedCheckpoint)) {
      if (purgedCheckpoint.lastSeq !== checkpoint.seq || purgedCheckpoint.lastMac === checkpoint.mac) checkpointReached = true;
      else noteCheckpoint(`ledger entry ${checkpoint.seq} is not the one checkpointed at ${checkpoint.at}: the ledger was rewritten from there`);
    }
    if (checkpoint && (previous?.seq ?? 0) < checkpoint.seq) {
      noteCheckpoint(`the ledger ends at entry ${previous?.seq ?? 0}, before the checkpoint of ${checkpoint.at} at entry ${checkpoint.seq}: its tail was cut`);
    }
    const episodes = await this.audit.episodeIdsOf(tenantId);
    const present = new Set(episodes);
    for (const id of inLedger) if (!present.has(id)) note(`episode "${id}" is in the ledger but no longer in the database: it was deleted`);
    for (const id of episodes) {
      if (!inLedger.has(id)) note(`episode "${id}" is not in the ledger: stored before it and not enrolled yet (POST /admin/ledger/enroll), or written without the key`);
    }
    return {
      tenant: slug,
      entries,
      episodes: episodes.length,
      ledger_ok: !ledgerBroken,
      checkpoint: checkpoint ? { seq: checkpoint.seq, at: checkpoint.at } : null,
      checkpoint_ok: checkpointReached,
      problems,
    };
  }
}
