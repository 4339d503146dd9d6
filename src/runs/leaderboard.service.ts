import { Injectable } from '@nestjs/common';
import type { Principal } from '../access/principal';
import type { RunSplit } from './dto/create-run.dto';
import type { LeaderboardBoardDto, LeaderboardDto, LeaderboardEntryDto } from './dto/leaderboard.dto';
import type { RunResultsDto } from './dto/run.dto';
import { runViewerOf } from './run-access';
import { cellsOfRuns, compareRuns } from './run-comparison.service';
import { isoTime } from './run.presenter';
import type { RunRow } from './run-statements';
import { RunsRepository } from './runs.repository';
import { RunsService } from './runs.service';
import { formTiers } from './statistics';

export const TIE_RULE =
  'Entries are ranked by pass^1. Tiers are formed top-down: the best entry leads tier 1; each next entry joins the current tier when its paired ' +
  "comparison with that tier's leader is within noise, else it leads a new tier. Overlap is not transitive, so membership is decided against " +
  'the leader only, which keeps the tiers the same however the entries are listed.';

/**
 * The tenant's leaderboard on a split: one board per configuration (runs with other cells, k, threshold or versions
 * are never ranked together), each agent's most recent complete run on it (never its best), ranked by pass^1.
 */
@Injectable()
export class LeaderboardService {
  constructor(
    private readonly runs: RunsRepository,
    private readonly service: RunsService,
  ) {}

  async leaderboard(principal: Principal, split: RunSplit): Promise<LeaderboardDto> {
    const viewer = runViewerOf(principal);
    const latest = await this.runs.latestCompleteRuns(viewer.tenantId, split);
    const byConfig = new Map<string, RunRow[]>();
    for (const run of latest) byConfig.set(run.configHash, [...(byConfig.get(run.configHash) ?? []), run]);
    const boards: LeaderboardBoardDto[] = [];
    for (const runs of byConfig.values()) boards.push(await this.board(viewer, runs));
    return { split, tie_rule: TIE_RULE, boards };
  }

  private async board(viewer: ReturnType<typeof runViewerOf>, runs: RunRow[]): Promise<LeaderboardBoardDto> {
    const first = runs[0];
    const results = new Map<string, RunResultsDto>();
    for (const run of runs) results.set(run.id, await this.service.resultsOf(viewer, run));
    const cells = await cellsOfRuns(this.runs, runs);
    const pass1 = (run: RunRow) => results.get(run.id)!.overall.pass_hat_k[0]?.estimate ?? 0;
    const byId = new Map(runs.map((run) => [run.id, run]));
    const tiers = formTiers(
      runs.map((run) => ({ id: run.id, score: pass1(run) })),
      (leader, id) => compareRuns(byId.get(leader)!, byId.get(id)!, cells).overall.verdict === 'within_noise',
    );
    const ranked = [...runs].sort((x, y) => pass1(y) - pass1(x) || (x.id < y.id ? -1 : 1));
    const entries: LeaderboardEntryDto[] = ranked.map((run, index) => {
      const overall = results.get(run.id)!.overall;
      return {
        tier: tiers.get(run.id)!,
        rank: index + 1,
        agent: run.agent,
        model: run.model,
        run_id: run.id,
        completed_at: isoTime(run.completedAt!),
        pass_hat_1: pick(overall.pass_hat_k[0]),
        pass_hat_k: pick(overall.pass_hat_k[run.trials - 1]),
        mean_score: overall.mean_score,
      };
    });
    return {
      config_hash: first.configHash,
      families: JSON.parse(first.familiesJson) as string[],
      seed_count: (JSON.parse(first.seedsJson) as number[]).length,
      trials: first.trials,
      success_threshold: first.successMilli / 1000,
      versions: { grader: first.graderVersion, generators: JSON.parse(first.generatorsJson) as Record<string, string> },
      entries,
    };
  }
}

const pick = (interval: { estimate: number | null; low: number | null; high: number | null } | undefined) =>
  interval === undefined ? { estimate: null, low: null, high: null } : { estimate: interval.estimate, low: interval.low, high: interval.high };
