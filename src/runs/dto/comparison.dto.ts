import { ApiProperty } from '@nestjs/swagger';
import { IntervalDto, StatisticsMethodDto } from './run-statistics.dto';

export const VERDICTS = ['a_better', 'b_better', 'within_noise'] as const;
export type Verdict = (typeof VERDICTS)[number];

export class SignTestDto {
  /** Seeds where run A's mean paired score is higher. */
  a_better!: number;
  b_better!: number;
  ties!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'Exact two-sided binomial p-value, ties dropped; null with no untied seed.' })
  p_value!: number | null;
}

export class PairedSummaryDto {
  /** Cells present in both runs (same family, seed and trial). */
  pairs!: number;
  seeds!: number;
  @ApiProperty({ type: Number, nullable: true })
  mean_a!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  mean_b!: number | null;
  @ApiProperty({ type: () => IntervalDto, description: 'Mean score of A minus B over the paired cells, with a paired bootstrap interval.' })
  difference!: IntervalDto;
  @ApiProperty({ type: () => SignTestDto })
  sign_test!: SignTestDto;
  @ApiProperty({ enum: VERDICTS, enumName: 'ComparisonVerdict', description: '"a_better" / "b_better" when the interval lies wholly above / below 0; else "within_noise".' })
  verdict!: Verdict;
  @ApiProperty({ type: Number, nullable: true, description: 'The smallest true difference runs of this size would detect (80% power at the interval\'s level).' })
  minimum_detectable_difference!: number | null;
}

export class FamilyPairedSummaryDto extends PairedSummaryDto {
  task_id!: string;
}

export class PairedMethodDto extends StatisticsMethodDto {
  sign_test!: string;
  minimum_detectable_difference!: string;
}

export class ComparisonDto {
  run_a!: string;
  run_b!: string;
  /** Cells finished in only one of the runs: left out of every figure. */
  unpaired_a!: number;
  unpaired_b!: number;
  @ApiProperty({ type: () => PairedSummaryDto })
  overall!: PairedSummaryDto;
  @ApiProperty({ type: () => [FamilyPairedSummaryDto] })
  families!: FamilyPairedSummaryDto[];
  @ApiProperty({ type: () => PairedMethodDto, description: 'How the intervals, the sign test and the detectable difference are computed.' })
  method!: PairedMethodDto;
}
