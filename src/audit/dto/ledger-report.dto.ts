import { ApiProperty } from '@nestjs/swagger';

export class LedgerCheckpointDto {
  /** The ledger entry the checkpoint fixed. */
  seq!: number;
  /** When it was written. */
  at!: string;
}

/** One tenant's ledger held against its episodes and against the checkpoints written outside the database. */
export class LedgerReportDto {
  /** The tenant's slug. */
  tenant!: string;
  /** Entries in the tenant's ledger. */
  entries!: number;
  /** Episodes the tenant has. */
  episodes!: number;
  /**
   * Every entry is in sequence from 1 under a valid MAC, every episode the ledger saw created is still there, and
   * every episode is in the ledger (episodes stored before it must be enrolled: POST /admin/ledger/enroll).
   */
  ledger_ok!: boolean;
  @ApiProperty({ type: () => LedgerCheckpointDto, nullable: true, description: 'The newest checkpoint of this ledger written outside the database, or null when none was.' })
  checkpoint!: LedgerCheckpointDto | null;
  /** The ledger still reaches its newest checkpoint (false: its tail was cut or rewound since). True when there is none yet. */
  checkpoint_ok!: boolean;
  /** What failed, first ones first (at most 20). */
  problems!: string[];
}

export class LedgerReportListDto {
  tenants!: LedgerReportDto[];
}
