import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, Min } from 'class-validator';

/** The longest retention period accepted: 100 years. */
export const MAX_RETENTION_DAYS = 36_500;

export class SetRetentionDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_RETENTION_DAYS,
    example: 90,
    description: 'Purge finished episodes this many days after their last step (DELETE the retention to keep them for ever, the default).',
  })
  @Max(MAX_RETENTION_DAYS)
  @Min(1)
  @IsInt()
  retention_days!: number;
}

export class DeleteTenantQueryDto {
  @ApiProperty({ description: "The tenant's slug once more: the deletion cannot be undone.", example: 'robotics-lab' })
  @IsString()
  confirm!: string;
}

/** One tenant's share of a retention sweep. */
export class TenantPurgeDto {
  tenant!: string;
  @ApiProperty({ type: 'integer' })
  retention_days!: number;
  @ApiProperty({ type: 'integer', description: 'Finished episodes removed, with their log and ledger entries.' })
  episodes!: number;
  @ApiProperty({ type: 'integer' })
  steps!: number;
  @ApiProperty({ type: 'integer', description: 'Ledger entries removed; each run of them is left as a gap a purge entry commits to.' })
  ledger_entries!: number;
}

export class RetentionSweepDto {
  /** When the sweep ran; episodes that finished before `at` minus each tenant's period were purged. */
  at!: string;
  @ApiProperty({ type: () => [TenantPurgeDto], description: 'Every tenant with a retention period, in creation order.' })
  tenants!: TenantPurgeDto[];
}

export class DeletedTenantDto {
  tenant!: string;
  @ApiProperty({ type: 'integer' })
  episodes!: number;
  @ApiProperty({ type: 'integer' })
  steps!: number;
  @ApiProperty({ type: 'integer' })
  keys!: number;
  @ApiProperty({ type: 'integer' })
  runs!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: "The last seq of the tenant's ledger when it was deleted (null: it had none)." })
  ledger_seq!: number | null;
}
