import { ApiProperty } from '@nestjs/swagger';
import { ActionLogEntryDto, PenaltyDto, ScoreComponentDto } from '../../episodes';
import { TERMINATIONS, type Termination } from './run.dto';

/** One line of a run's JSON-lines export: a finished cell's counted episode, with its grade and trajectory. */
export class ExportedRunEpisodeDto {
  run_id!: string;
  task_id!: string;
  seed!: number;
  trial!: number;
  episode_id!: string;
  task_version!: string;
  grader_version!: number;
  @ApiProperty({ enum: TERMINATIONS })
  termination!: Termination;
  score!: number;
  success!: boolean;
  @ApiProperty({ type: Number, nullable: true })
  wall_ms!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  input_tokens!: number | null;
  @ApiProperty({ type: Number, nullable: true })
  output_tokens!: number | null;
  @ApiProperty({ type: () => [ScoreComponentDto] })
  components!: ScoreComponentDto[];
  @ApiProperty({ type: () => [PenaltyDto] })
  penalties!: PenaltyDto[];
  @ApiProperty({ type: () => [ActionLogEntryDto] })
  actions!: ActionLogEntryDto[];
}

/** The CSV export's columns, in order: one line per cell in hand-out order, empty where a value is null. */
export const CSV_COLUMNS = [
  'run_id',
  'task_id',
  'seed',
  'trial',
  'status',
  'episode_id',
  'attempts',
  'termination',
  'score',
  'success',
  'steps',
  'wall_ms',
  'input_tokens',
  'output_tokens',
] as const;
