import { ApiProperty } from '@nestjs/swagger';
import { RUN_SPLITS, type RunSplit } from './create-run.dto';
import { IntervalDto } from './run-statistics.dto';
import { RunVersionsDto } from './run.dto';

export class LeaderboardEntryDto {
  /** 1 = the top tier; agents whose difference from their tier's leader is within noise share its tier. */
  tier!: number;
  /** Position by pass^1 (exact ties broken by run id, as the tiers are formed). */
  rank!: number;
  agent!: string;
  @ApiProperty({ type: String, nullable: true })
  model!: string | null;
  /** The agent's most recent complete run on this board (never the best of several). */
  run_id!: string;
  completed_at!: string;
  @ApiProperty({ type: () => IntervalDto })
  pass_hat_1!: IntervalDto;
  @ApiProperty({ type: () => IntervalDto, description: 'pass^k at the board\'s k (its trials).' })
  pass_hat_k!: IntervalDto;
  @ApiProperty({ type: () => IntervalDto })
  mean_score!: IntervalDto;
}

/** One configuration's board: runs with other cells, k, threshold or versions are on another board, never mixed. */
export class LeaderboardBoardDto {
  config_hash!: string;
  families!: string[];
  seed_count!: number;
  trials!: number;
  success_threshold!: number;
  @ApiProperty({ type: () => RunVersionsDto })
  versions!: RunVersionsDto;
  @ApiProperty({ type: () => [LeaderboardEntryDto] })
  entries!: LeaderboardEntryDto[];
}

export class LeaderboardDto {
  @ApiProperty({ enum: RUN_SPLITS, enumName: 'RunSplit' })
  split!: RunSplit;
  /** How tiers are formed. */
  tie_rule!: string;
  /** Boards by their newest run first. */
  @ApiProperty({ type: () => [LeaderboardBoardDto] })
  boards!: LeaderboardBoardDto[];
}
