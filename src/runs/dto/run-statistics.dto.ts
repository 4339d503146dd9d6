import { ApiProperty } from '@nestjs/swagger';

/** An estimate with its interval (the run's `method` says which); all null where there is no data yet. */
export class IntervalDto {
  @ApiProperty({ type: Number, nullable: true })
  estimate!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  low!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  high!: number | null;
}

export class PassHatKDto extends IntervalDto {
  /** k of pass^k: the chance that k trials of one (family, seed), drawn from its trials, all succeed. */
  k!: number;
}

/** A family's (or the whole run's) results over its finished cells. */
export class GroupSummaryDto {
  /** Finished cells counted. */
  cells!: number;
  /** Seeds with at least one finished cell. */
  seeds!: number;
  @ApiProperty({ type: () => IntervalDto, description: 'Mean score: over each seed\'s trials, then over seeds, then (overall) over families, each weighing the same.' })
  mean_score!: IntervalDto;
  @ApiProperty({ type: () => IntervalDto, description: 'Share of cells that succeed, weighted like the mean score.' })
  success_rate!: IntervalDto;
  @ApiProperty({ type: () => [PassHatKDto], description: 'pass^k for k = 1..trials: C(c,k)/C(n,k) per (family, seed), averaged over seeds, then families.' })
  pass_hat_k!: PassHatKDto[];
  @ApiProperty({ type: Number, nullable: true, description: 'Share of seeds (with two or more finished trials) whose trials disagree on success.' })
  flip_rate!: number | null;
}

export class StatisticsMethodDto {
  resamples!: number;
  seed!: number;
  /** The intervals' confidence level, e.g. 0.95. */
  level!: number;
  /** What the intervals are about. */
  estimand!: string;
  /** What the bootstrap resamples, and why. */
  resampling!: string;
}
