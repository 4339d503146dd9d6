import { ApiProperty } from '@nestjs/swagger';
import { FEEDBACK_MODES, type FeedbackMode } from '../../episodes';
import { RUN_SPLITS, type RunSplit } from './create-run.dto';
import { GroupSummaryDto, StatisticsMethodDto } from './run-statistics.dto';

export const RUN_STATUSES = ['open', 'complete'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const CELL_STATUSES = ['pending', 'active', 'finished', 'abandoned', 'failed'] as const;
export type CellStatus = (typeof CELL_STATUSES)[number];
export const TERMINATIONS = ['resolved', 'out_of_steps', 'gave_up', 'abandoned', 'infrastructure_error'] as const;
export type Termination = (typeof TERMINATIONS)[number];

export class RunVersionsDto {
  /** The grader version every episode of the run is scored by. */
  grader!: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Task id → the task version its instances are drawn from (a generator version, or a task file\'s hash).' })
  generators!: Record<string, string>;
}

export class RunProgressDto {
  cells!: number;
  pending!: number;
  active!: number;
  finished!: number;
  /** Cells whose last attempt was abandoned (idle expiry): they may be filled again. */
  abandoned!: number;
  /** Cells whose last attempt failed on infrastructure (reported by the agent): they may be filled again. */
  failed!: number;
}

/** How the cells' last attempts ended, and how many attempts were made beyond each cell's first. */
export class TerminationCountsDto {
  resolved!: number;
  out_of_steps!: number;
  /** Cells finished because the agent gave up (stopped acting): counted with the score the episode had. */
  gave_up!: number;
  /** Cells whose last attempt was abandoned (idle expiry), to be filled again. */
  abandoned!: number;
  /** Cells whose last attempt failed on infrastructure, to be filled again. */
  infrastructure_error!: number;
  /** Attempts beyond each cell's first (abandoned or failed ones that were retried). */
  retries!: number;
}

export class RunTotalsDto {
  /** Steps and wall time of the finished cells' counted episodes. */
  steps!: number;
  @ApiProperty({ type: Number, nullable: true })
  mean_steps!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  mean_wall_ms!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Input tokens the agent reported (null: none reported).' })
  input_tokens!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  output_tokens!: number | null;
}

export class ComponentMeanDto {
  name!: string;
  /** Mean points earned per finished cell. */
  mean!: number;
}

export class FamilyResultsDto extends GroupSummaryDto {
  task_id!: string;
  @ApiProperty({ type: () => [ComponentMeanDto] })
  components!: ComponentMeanDto[];
  /** Mean points taken off per finished cell by penalties. */
  mean_penalty!: number;
  @ApiProperty({ type: () => TerminationCountsDto })
  terminations!: TerminationCountsDto;
  @ApiProperty({ type: () => RunTotalsDto })
  totals!: RunTotalsDto;
}

export class RunResultsDto {
  /** A cell succeeds when its score is at least this. */
  success_threshold!: number;
  @ApiProperty({ type: () => GroupSummaryDto })
  overall!: GroupSummaryDto;
  @ApiProperty({ type: () => [FamilyResultsDto] })
  families!: FamilyResultsDto[];
  @ApiProperty({ type: () => TerminationCountsDto })
  terminations!: TerminationCountsDto;
  @ApiProperty({ type: () => RunTotalsDto })
  totals!: RunTotalsDto;
  @ApiProperty({ type: () => StatisticsMethodDto })
  method!: StatisticsMethodDto;
}

export class RunDto {
  run_id!: string;
  name!: string;
  agent!: string;
  @ApiProperty({ type: String, nullable: true })
  model!: string | null;
  @ApiProperty({ enum: RUN_SPLITS, enumName: 'RunSplit' })
  split!: RunSplit;
  @ApiProperty({ enum: FEEDBACK_MODES })
  feedback!: FeedbackMode;
  families!: string[];
  seeds!: number[];
  trials!: number;
  success_threshold!: number;
  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata!: Record<string, unknown>;
  /** sha256 of the configuration (split, feedback, families, seeds, trials, success threshold, versions): runs with the same hash have the same cells and pair up. */
  config_hash!: string;
  @ApiProperty({ type: () => RunVersionsDto })
  versions!: RunVersionsDto;
  @ApiProperty({ enum: RUN_STATUSES, enumName: 'RunStatus', description: '"complete" once every cell is finished.' })
  status!: RunStatus;
  created_at!: string;
  @ApiProperty({ type: String, nullable: true })
  completed_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Id of the API key that created the run (null: open mode).' })
  created_by_key!: string | null;
  @ApiProperty({ type: () => RunProgressDto })
  progress!: RunProgressDto;
  @ApiProperty({ type: () => RunResultsDto, nullable: true, description: 'Scores and statistics; null for an agent key (see results_withheld) and in GET /runs listings.' })
  results!: RunResultsDto | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why `results` is null, or null.' })
  results_withheld!: string | null;
}

export class RunPageDto {
  /** Newest first. */
  @ApiProperty({ type: () => [RunDto] })
  runs!: RunDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  next_cursor!: string | null;
}

export class CellDto {
  task_id!: string;
  seed!: number;
  trial!: number;
  @ApiProperty({ enum: CELL_STATUSES, enumName: 'CellStatus' })
  status!: CellStatus;
  @ApiProperty({ type: String, nullable: true, description: 'The episode of the current (or, once finished, counted) attempt.' })
  episode_id!: string | null;
  attempts!: number;
  @ApiProperty({ type: String, enum: TERMINATIONS, nullable: true, description: 'How the last attempt ended; null while none has.' })
  termination!: Termination | null;
  @ApiProperty({ type: Number, nullable: true })
  wall_ms!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  input_tokens!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  output_tokens!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The counted episode\'s score; null until finished, and always for an agent key.' })
  score!: number | null;
}

export class CellPageDto {
  /** In hand-out order (trial, family, seed). */
  @ApiProperty({ type: () => [CellDto] })
  cells!: CellDto[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last.' })
  next_cursor!: string | null;
}
