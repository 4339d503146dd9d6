import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MaxChars, QueryNumber } from '../../common/field-rules';
import { RUN_SPLITS, type RunSplit } from './create-run.dto';
import { CELL_STATUSES, RUN_STATUSES, type CellStatus, type RunStatus } from './run.dto';

/** Page sizes of the run listings. */
export const DEFAULT_PAGE_SIZE = 50;
export const MAX_RUN_PAGE_SIZE = 200;
export const MAX_CELL_PAGE_SIZE = 1000;

class PageQueryDto {
  @ApiProperty({ required: false, maxLength: 512, description: 'next_cursor of the previous page.' })
  @MaxChars(512)
  @IsString()
  @IsOptional()
  cursor?: string;
}

export class ListRunsQueryDto extends PageQueryDto {
  @ApiProperty({ required: false, maxLength: 128 })
  @MaxChars(128)
  @IsString()
  @IsOptional()
  agent?: string;

  @ApiProperty({ required: false, enum: RUN_STATUSES, enumName: 'RunStatus' })
  @IsIn(RUN_STATUSES)
  @IsOptional()
  status?: RunStatus;

  @ApiProperty({ required: false, enum: RUN_SPLITS, enumName: 'RunSplit' })
  @IsIn(RUN_SPLITS)
  @IsOptional()
  split?: RunSplit;

  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: MAX_RUN_PAGE_SIZE, description: `Runs per page (default ${DEFAULT_PAGE_SIZE}).` })
  @Max(MAX_RUN_PAGE_SIZE)
  @Min(1)
  @IsInt()
  @QueryNumber()
  @IsOptional()
  limit?: number;
}

export class ListCellsQueryDto extends PageQueryDto {
  @ApiProperty({ required: false, enum: CELL_STATUSES, enumName: 'CellStatus' })
  @IsIn(CELL_STATUSES)
  @IsOptional()
  status?: CellStatus;

  @ApiProperty({ required: false, type: 'integer', minimum: 1, maximum: MAX_CELL_PAGE_SIZE, description: `Cells per page (default ${DEFAULT_PAGE_SIZE}).` })
  @Max(MAX_CELL_PAGE_SIZE)
  @Min(1)
  @IsInt()
  @QueryNumber()
  @IsOptional()
  limit?: number;
}

export const EXPORT_FORMATS = ['jsonl', 'csv', 'inspect'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export class ExportRunQueryDto {
  @ApiProperty({
    required: false,
    enum: EXPORT_FORMATS,
    enumName: 'RunExportFormat',
    description: '"jsonl" (default: one line per counted episode with its trajectory and grade), "csv" (one line per cell) or "inspect" (an Inspect AI log, .eval).',
  })
  @IsIn(EXPORT_FORMATS, { message: `format must be one of: ${EXPORT_FORMATS.join(', ')}` })
  @IsOptional()
  format?: ExportFormat;
}

export class LeaderboardQueryDto {
  @ApiProperty({ required: false, enum: RUN_SPLITS, enumName: 'RunSplit', description: 'The split whose runs are ranked (default "test").' })
  @IsIn(RUN_SPLITS)
  @IsOptional()
  split?: RunSplit;
}
